//! `--format svg` over the corpus of the kinds compiled to the engine: every file gets a
//! snapshot of its picture (or of its error, for a model without a board); every picture is
//! parsed as XML and its structure checked (the right number of cells, queens, points,
//! given and found values); a few are rendered with resvg to prove that they draw.
//!
//! `CPSOLVE_PICTURES_PNG=DIR cargo test --release --test pictures` also writes the rendered
//! PNGs to DIR, to look at them.

mod common;

use std::path::Path;

/// Runs `cpsolve --format svg` on a corpus file (path relative to `tests/`).
fn picture(relative: &str) -> common::Run {
    let source = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join(relative))
        .expect("corpus file is readable");
    let mut args = common::header_args(&source);
    args.extend(["--format".to_string(), "svg".to_string(), relative.to_string()]);
    let arg_refs: Vec<&str> = args.iter().map(String::as_str).collect();
    common::cpsolve(&arg_refs, None)
}

#[test]
fn corpus_pictures() {
    insta::glob!("corpus/{cryptarithm,queens,nothreeinline,model}/*.puz", |path: &Path| {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
        let relative = path.strip_prefix(&root).expect("corpus lies under tests/").to_string_lossy().to_string();
        let run = picture(&relative);
        assert!(!run.stderr.contains("panicked"), "cpsolve panicked on {relative}: {}", run.stderr);
        if run.code != 2 && !run.stdout.is_empty() {
            let svg = parse(&run.stdout);
            assert_eq!(svg.root_element().tag_name().name(), "svg", "{relative}");
        }
        insta::assert_snapshot!(format!("exit: {}\n--- stdout\n{}--- stderr\n{}", run.code, run.stdout, run.stderr));
    });
}

fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not XML: {e}\n{svg}"))
}

/// The elements whose class list holds `class`.
fn with_class<'a>(document: &'a roxmltree::Document<'a>, class: &str) -> Vec<roxmltree::Node<'a, 'a>> {
    document
        .descendants()
        .filter(|node| node.attribute("class").is_some_and(|list| list.split_whitespace().any(|c| c == class)))
        .collect()
}

fn svg_of(relative: &str) -> String {
    let run = picture(relative);
    assert_eq!(run.code, 0, "{relative}: {}", run.stderr);
    run.stdout
}

/// The root is an `svg` element with a `viewBox` of the picture's size.
fn check_root(document: &roxmltree::Document<'_>) {
    let root = document.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
    let view_box: Vec<f64> =
        root.attribute("viewBox").expect("a viewBox").split_whitespace().map(|v| v.parse().expect("numbers")).collect();
    assert_eq!(view_box.len(), 4);
    assert!(view_box[2] > 0.0 && view_box[3] > 0.0);
}

#[test]
fn a_sudoku_shows_81_cells_its_givens_apart_and_its_nine_boxes() {
    let svg = svg_of("corpus/model/sudoku.puz");
    let document = parse(&svg);
    check_root(&document);
    let source = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/model/sudoku.puz"))
        .expect("readable");
    let grid = source.split("given x =").nth(1).expect("a given grid");
    let givens = grid.lines().take(10).flat_map(str::split_whitespace).filter(|w| w.parse::<u32>().is_ok()).count();
    assert_eq!(givens, 30);
    assert_eq!(with_class(&document, "cell").len(), 81);
    assert_eq!(with_class(&document, "given").len(), givens);
    assert_eq!(with_class(&document, "found").len(), 81 - givens);
    assert_eq!(with_class(&document, "box").len(), 9);
    // The caption says the solution is the only one.
    let caption: String = with_class(&document, "caption").iter().filter_map(|n| n.text()).collect();
    assert_eq!(caption, "1 solution");
}

#[test]
fn a_magic_square_has_no_boxes_though_its_side_is_a_square() {
    let svg = svg_of("corpus/model/magic-square-4.puz");
    let document = parse(&svg);
    check_root(&document);
    assert_eq!(with_class(&document, "cell").len(), 16);
    assert_eq!(with_class(&document, "found").len(), 16);
    assert!(with_class(&document, "box").is_empty());
}

#[test]
fn a_nonogram_is_drawn_as_filled_squares() {
    let document_text = svg_of("corpus/model/nonogram.puz");
    let document = parse(&document_text);
    assert_eq!(with_class(&document, "cell").len(), 225);
    let filled = with_class(&document, "filled").len();
    assert!(filled > 50 && filled < 225, "{filled} filled squares");
    assert!(with_class(&document, "value").is_empty());
}

#[test]
fn queens_show_one_disc_per_column_the_fixed_ones_as_given() {
    let document_text = svg_of("corpus/queens/queens-8-from-5-2.puz");
    let document = parse(&document_text);
    check_root(&document);
    assert_eq!(with_class(&document, "queen").len(), 8);
    assert_eq!(with_class(&document, "given").len(), 2);
    assert_eq!(with_class(&document, "found").len(), 6);
    let columns: std::collections::BTreeSet<String> =
        with_class(&document, "queen").iter().map(|q| q.attribute("cx").expect("cx").to_string()).collect();
    assert_eq!(columns.len(), 8, "one queen per column");
}

#[test]
fn a_count_of_queens_shows_the_first_placement_with_the_count() {
    let run = picture("corpus/queens/queens-8.puz");
    let document = parse(&run.stdout);
    assert_eq!(with_class(&document, "queen").len(), 8);
    let caption: String = with_class(&document, "caption").iter().filter_map(|n| n.text()).collect();
    assert!(caption.starts_with("92 solutions"), "{caption}");
}

#[test]
fn no_three_in_line_shows_2n_points_and_the_full_lines() {
    let document_text = svg_of("corpus/nothreeinline/n10-first.puz");
    let document = parse(&document_text);
    check_root(&document);
    let points = with_class(&document, "point");
    assert_eq!(points.len(), 20);
    assert!(!with_class(&document, "full-line").is_empty());
    // Two points per row: the discs' y coordinates come in pairs.
    let mut rows = std::collections::BTreeMap::<String, usize>::new();
    for point in &points {
        *rows.entry(point.attribute("cy").expect("cy").to_string()).or_default() += 1;
    }
    assert!(rows.values().all(|&n| n == 2), "{rows:?}");
}

#[test]
fn a_cryptarithm_shows_each_letter_its_digit_and_the_carries() {
    let document_text = svg_of("corpus/cryptarithm/send-more-money.puz");
    let document = parse(&document_text);
    check_root(&document);
    // SEND, MORE, MONEY: 13 letter cells; 8 distinct letters in the key.
    assert_eq!(with_class(&document, "found").len(), 13);
    assert_eq!(with_class(&document, "key").len(), 8);
    let digits: String = with_class(&document, "digit").iter().filter_map(|n| n.text()).collect();
    // Each row from the units leftwards: DNES, EROM, YENOM.
    assert_eq!(digits, "7659580125601");
    // 9567 + 1085: carries into the tens (1), hundreds (1) and ten thousands (1); none into the thousands.
    let carries: Vec<&str> = with_class(&document, "carry").iter().filter_map(|n| n.text()).collect();
    assert_eq!(carries, ["1", "1", "1"]);
}

#[test]
fn a_model_without_a_board_is_an_error_not_an_empty_picture() {
    for relative in ["corpus/model/knapsack.puz", "corpus/model/queens.puz"] {
        let run = picture(relative);
        assert_eq!(run.code, 2, "{relative}");
        assert!(run.stdout.is_empty());
        assert!(run.stderr.contains("has no board to draw"), "{}", run.stderr);
    }
}

#[test]
fn several_models_need_a_directory_and_get_one_picture_each() {
    let run = common::cpsolve(&["--format", "svg", "corpus/queens/queens-8.puz", "corpus/model/sudoku.puz"], None);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("give --out DIR"), "{}", run.stderr);
    let dir = std::env::temp_dir().join(format!("cpsolve-pictures-{}", std::process::id()));
    let out = dir.to_string_lossy().to_string();
    let run = common::cpsolve(
        &["--format", "svg", "--out", &out, "corpus/queens/queens-8.puz", "corpus/model/sudoku.puz"],
        None,
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.is_empty());
    for stem in ["queens-8", "sudoku"] {
        let svg = std::fs::read_to_string(dir.join(format!("{stem}.svg"))).expect("one picture per model");
        check_root(&parse(&svg));
    }
    let run = common::cpsolve(&["--out", &out, "corpus/queens/queens-8.puz"], None);
    assert_eq!(run.code, 2, "--out without --format svg");
    std::fs::remove_dir_all(&dir).expect("temporary directory removed");
}

/// Renders a picture; also writes it as PNG when `CPSOLVE_PICTURES_PNG` names a directory.
fn render(svg: &str, name: &str) -> resvg::tiny_skia::Pixmap {
    let mut options = resvg::usvg::Options::default();
    options.fontdb_mut().load_system_fonts();
    let tree = resvg::usvg::Tree::from_str(svg, &options).expect("resvg reads the picture");
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).expect("a non-empty picture");
    resvg::render(&tree, resvg::tiny_skia::Transform::default(), &mut pixmap.as_mut());
    if let Some(dir) = std::env::var_os("CPSOLVE_PICTURES_PNG") {
        pixmap.save_png(Path::new(&dir).join(format!("{name}.png"))).expect("PNG written");
    }
    pixmap
}

/// The brightness (0..=765) of the pixel at user coordinates (x, y).
fn brightness(pixmap: &resvg::tiny_skia::Pixmap, x: f64, y: f64) -> u32 {
    let pixel = pixmap.pixel(x as u32, y as u32).expect("inside the picture");
    u32::from(pixel.red()) + u32::from(pixel.green()) + u32::from(pixel.blue())
}

/// Not blank: a good share of the pixels are neither transparent nor white.
fn assert_drawn(pixmap: &resvg::tiny_skia::Pixmap, name: &str) {
    let inked =
        pixmap.pixels().iter().filter(|p| p.alpha() > 0 && (p.red(), p.green(), p.blue()) != (255, 255, 255)).count();
    let share = inked as f64 / pixmap.pixels().len() as f64;
    assert!(share > 0.02, "{name}: only {:.1}% of the pixels are drawn", share * 100.0);
}

#[test]
fn pictures_render_and_a_queen_is_darker_than_an_empty_square_of_its_colour() {
    let svg = svg_of("corpus/queens/queens-8.puz");
    let pixmap = render(&svg, "queens-8");
    assert_drawn(&pixmap, "queens-8");
    let document = parse(&svg);
    let cell: f64 = with_class(&document, "square")[0].attribute("width").expect("width").parse().expect("number");
    for queen in with_class(&document, "queen") {
        let cx: f64 = queen.attribute("cx").expect("cx").parse().expect("number");
        let cy: f64 = queen.attribute("cy").expect("cy").parse().expect("number");
        // Two rows away in the same column: the same colour of square, and no queen there.
        let empty_y = if cy - 2.0 * cell > 20.0 { cy - 2.0 * cell } else { cy + 2.0 * cell };
        assert!(
            brightness(&pixmap, cx, cy) + 100 < brightness(&pixmap, cx, empty_y),
            "the queen at ({cx}, {cy}) does not stand out"
        );
    }
    for (relative, name) in [
        ("corpus/model/sudoku.puz", "sudoku"),
        ("corpus/nothreeinline/n10-first.puz", "n10-first"),
        ("corpus/cryptarithm/send-more-money.puz", "send-more-money"),
        ("corpus/cryptarithm/mari-femme-12-enfant-famille.puz", "mari-femme-12-enfant-famille"),
        ("corpus/model/nonogram.puz", "nonogram"),
        ("corpus/model/hidato.puz", "hidato"),
        ("corpus/queens/queens-8-from-5-2.puz", "queens-8-from-5-2"),
    ] {
        let pixmap = render(&svg_of(relative), name);
        assert_drawn(&pixmap, name);
    }
}

#[test]
fn a_given_cell_is_shaded_and_a_found_one_is_not() {
    let svg = svg_of("corpus/model/sudoku.puz");
    let pixmap = render(&svg, "sudoku-cells");
    let document = parse(&svg);
    let cells = with_class(&document, "cell");
    // The first cell holds the given 5, the third a found value.
    let corner = |node: &roxmltree::Node<'_, '_>| {
        let x: f64 = node.attribute("x").expect("x").parse().expect("number");
        let y: f64 = node.attribute("y").expect("y").parse().expect("number");
        (x + 4.0, y + 4.0)
    };
    let (gx, gy) = corner(&cells[0]);
    let (fx, fy) = corner(&cells[2]);
    assert!(brightness(&pixmap, gx, gy) < brightness(&pixmap, fx, fy));
}

/// Standard output of an SVG run is a picture or nothing: a limit's "stopped" line goes to
/// standard error, even from the watchdog's hard stop. The limits are tiny, so either
/// outcome (stopped, or the whole answer) is accepted.
#[test]
fn a_limit_never_writes_text_into_the_picture() {
    let runs = [
        common::cpsolve(&["--format", "svg", "--timeout", "0.05", "-e", "queens n = 30\nsolve count"], None),
        common::cpsolve(&["--format", "svg", "--memory", "20", "-e", "queens n = 100000\nsolve count"], None),
    ];
    for run in runs {
        assert!(run.code == 0 || run.code == 3, "{run:?}");
        if !run.stdout.is_empty() {
            check_svg_root(&parse(&run.stdout));
        }
        if run.code == 3 {
            assert!(run.stderr.contains("stopped: "), "{run:?}");
        }
    }
}

fn check_svg_root(document: &roxmltree::Document<'_>) {
    assert_eq!(document.root_element().tag_name().name(), "svg");
}

/// `--out` naming the model, or a file it includes, is refused before anything is written.
#[test]
fn out_may_not_overwrite_the_model() {
    let dir = std::env::temp_dir().join(format!("cpsolve-out-is-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    std::fs::write(dir.join("board.puz"), "queens n = 5\n").expect("model written");
    std::fs::write(dir.join("main.puz"), "include \"board.puz\"\n").expect("model written");
    for (out, model) in [("board.puz", "board.puz"), ("./board.puz", "main.puz")] {
        let run = common::cpsolve_in(&dir, &["--format", "svg", "--out", out, model], None);
        assert_eq!(run.code, 2, "{run:?}");
        assert!(run.stderr.contains("the picture would overwrite it"), "{}", run.stderr);
        assert_eq!(std::fs::read_to_string(dir.join("board.puz")).expect("still there"), "queens n = 5\n");
    }
    std::fs::remove_dir_all(&dir).expect("temporary directory removed");
}
