//! Helpers shared by the integration tests: a compact printer for expressions and a check
//! that every span of a tree lies inside its parent and inside the source.

#![allow(dead_code, reason = "each test binary uses a different subset")]

use cpsolve_dsl::ast::{EnumPart, Expr, File, Generator, Item, LetDefinition, Span, Spanned, UnaryOp};

/// `(a + (b * c))`: fully parenthesised, so precedence is visible in assertions.
pub(crate) fn show(expr: &Spanned<Expr>) -> String {
    let list = |items: &[Spanned<Expr>]| items.iter().map(show).collect::<Vec<_>>().join(", ");
    match &expr.node {
        Expr::Int(value) => value.to_string(),
        Expr::Bool(value) => value.to_string(),
        Expr::Name(name) => name.clone(),
        Expr::Index { array, indices } => format!("{}[{}]", array.node, list(indices)),
        Expr::Unary { op: UnaryOp::Neg, operand } => format!("(-{})", show(operand)),
        Expr::Unary { op: UnaryOp::Not, operand } => format!("(not {})", show(operand)),
        Expr::Binary { op, lhs, rhs } => format!("({} {} {})", show(lhs), op.symbol(), show(rhs)),
        Expr::Call { function, args } => format!("{}({})", function.node, list(args)),
        Expr::List(items) => format!("[{}]", list(items)),
        Expr::Comprehension { element, generators } => format!("[{} | {}]", show(element), show_generators(generators)),
        Expr::Range { lo, hi } => format!("({}..{})", show(lo), show(hi)),
        Expr::Set(items) => format!("{{{}}}", list(items)),
        Expr::If { branches, otherwise } => {
            let mut out = String::new();
            for (k, (condition, value)) in branches.iter().enumerate() {
                let word = if k == 0 { "if" } else { " elseif" };
                out.push_str(&format!("{word} {} then {}", show(condition), show(value)));
            }
            if let Some(e) = otherwise {
                out.push_str(&format!(" else {}", show(e)));
            }
            format!("({out} endif)")
        }
        Expr::Let { definitions, body } => {
            let shown: Vec<String> = definitions
                .iter()
                .map(|d| match d {
                    LetDefinition::Const { name, value } => format!("{} = {}", name.node, show(value)),
                    LetDefinition::Var { decl, domain } => format!("var {} in {}", decl.name.node, show(domain)),
                    LetDefinition::Constraint(e) => format!("constraint {}", show(e)),
                })
                .collect();
            format!("(let {{{}}} in {})", shown.join("; "), show(body))
        }
        Expr::SetOf(inner) => format!("(set of {})", show(inner)),
        Expr::Str(text) => format!("{text:?}"),
        Expr::Annotated { expr, annotations } => {
            let shown: Vec<String> = annotations.iter().map(|a| format!(" :: {}", show(a))).collect();
            format!("({}{})", show(expr), shown.concat())
        }
    }
}

pub(crate) fn show_generators(generators: &[Generator]) -> String {
    generators
        .iter()
        .map(|g| {
            let names: Vec<_> = g.names.iter().map(|n| n.node.as_str()).collect();
            let filter = g.filter.as_ref().map(|f| format!(" where {}", show(f))).unwrap_or_default();
            format!("{} in {}{}", names.join(", "), show(&g.source), filter)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Asserts that spans nest: each inside its parent, the top ones inside the source, and
/// all of them on character boundaries.
pub(crate) fn check_spans(file: &File, source: &str) {
    let whole = 0..source.len();
    for item in &file.items {
        check_span(&item.span, &whole, source);
        check_item(item, source);
    }
}

fn check_span(span: &Span, parent: &Span, source: &str) {
    assert!(span.start <= span.end, "reversed span {span:?}");
    assert!(parent.start <= span.start && span.end <= parent.end, "span {span:?} outside {parent:?}");
    assert!(source.is_char_boundary(span.start) && source.is_char_boundary(span.end), "span {span:?} splits a char");
}

fn check_item(item: &Spanned<Item>, source: &str) {
    let within = |span: &Span| check_span(span, &item.span, source);
    let expr = |e: &Spanned<Expr>| {
        within(&e.span);
        check_expr(e, source);
    };
    match &item.node {
        Item::Let { name, dims, value } => {
            within(&name.span);
            dims.iter().for_each(expr);
            expr(value);
        }
        Item::Param { name, dims } => {
            within(&name.span);
            dims.iter().for_each(expr);
        }
        Item::Defined { name, dims, domain, value } => {
            within(&name.span);
            dims.iter().for_each(expr);
            domain.iter().for_each(|d| expr(d));
            expr(value);
        }
        Item::Var { decls, domain } => {
            for decl in decls {
                within(&decl.name.span);
                decl.dims.iter().for_each(expr);
            }
            expr(domain);
        }
        Item::Constraint(e) => expr(e),
        Item::Forall { generators, body } => {
            for g in generators {
                check_generator(g, &item.span, source);
            }
            within(&body.span);
            check_item(body, source);
        }
        Item::Given { name, rows } => {
            within(&name.span);
            for row in rows {
                within(&row.span);
                assert_eq!(&source[row.span.clone()], row.text);
            }
        }
        Item::Solve(mode) => within(&mode.span),
        Item::Optimize { sense, objective } => {
            within(&sense.span);
            expr(objective);
        }
        Item::Option { name, values } => {
            within(&name.span);
            values.iter().for_each(|v| within(&v.span));
        }
        Item::Cryptarithm { lhs, rhs } => {
            expr(lhs);
            expr(rhs);
        }
        Item::Puzzle { kind, params, rows } => {
            within(&kind.span);
            for param in params {
                within(&param.name.span);
                expr(&param.value);
            }
            for row in rows {
                within(&row.span);
                assert_eq!(&source[row.span.clone()], row.text);
            }
        }
        Item::Compte { tiles, target } => {
            tiles.iter().for_each(|t| within(&t.span));
            within(&target.span);
        }
        Item::Function { name, params, body, .. } => {
            within(&name.span);
            params.iter().for_each(|p| within(&p.span));
            expr(body);
        }
        Item::Enum { name, parts } => {
            within(&name.span);
            for part in parts {
                match part {
                    EnumPart::Names(values) => values.iter().for_each(|v| within(&v.span)),
                    EnumPart::Constructor { name, set } => {
                        within(&name.span);
                        expr(set);
                    }
                }
            }
        }
        Item::Include(path) => within(&path.span),
        Item::Search(e) => expr(e),
        Item::SolveAnnotations(annotations) => annotations.iter().for_each(expr),
    }
}

fn check_generator(generator: &Generator, parent: &Span, source: &str) {
    for name in &generator.names {
        check_span(&name.span, parent, source);
    }
    for e in std::iter::once(&generator.source).chain(&generator.filter) {
        check_span(&e.span, parent, source);
        check_expr(e, source);
    }
}

fn check_expr(expr: &Spanned<Expr>, source: &str) {
    let child = |e: &Spanned<Expr>| {
        check_span(&e.span, &expr.span, source);
        check_expr(e, source);
    };
    match &expr.node {
        Expr::Int(_) | Expr::Bool(_) | Expr::Name(_) => {}
        Expr::Index { array, indices } => {
            check_span(&array.span, &expr.span, source);
            indices.iter().for_each(child);
        }
        Expr::Unary { operand, .. } => child(operand),
        Expr::Binary { lhs, rhs, .. } => {
            child(lhs);
            child(rhs);
        }
        Expr::Call { function, args } => {
            check_span(&function.span, &expr.span, source);
            args.iter().for_each(child);
        }
        Expr::List(items) | Expr::Set(items) => items.iter().for_each(child),
        Expr::Comprehension { element, generators } => {
            child(element);
            for g in generators {
                check_generator(g, &expr.span, source);
            }
        }
        Expr::Range { lo, hi } => {
            child(lo);
            child(hi);
        }
        Expr::If { branches, otherwise } => {
            for (condition, value) in branches {
                child(condition);
                child(value);
            }
            if let Some(e) = otherwise {
                child(e);
            }
        }
        Expr::Let { definitions, body } => {
            for d in definitions {
                match d {
                    LetDefinition::Const { name, value } => {
                        check_span(&name.span, &expr.span, source);
                        child(value);
                    }
                    LetDefinition::Var { decl, domain } => {
                        check_span(&decl.name.span, &expr.span, source);
                        decl.dims.iter().for_each(child);
                        child(domain);
                    }
                    LetDefinition::Constraint(e) => child(e),
                }
            }
            child(body);
        }
        Expr::SetOf(inner) => child(inner),
        Expr::Str(_) => {}
        Expr::Annotated { expr, annotations } => {
            child(expr);
            annotations.iter().for_each(child);
        }
    }
}
