//! The pictures (`--format svg`) of the three puzzles: every corpus file's picture parses
//! as XML and has the structure its answer calls for (one square per cell, one marker per
//! certain cell, a legend; one frame per move and two rings per match; one tree node per
//! tile used and per operation); some are drawn with resvg and checked pixel by pixel.
//!
//! `PICTURES_PNG=DIR cargo test --release -p cpsolve-puzzles --test pictures` also writes
//! the drawn pictures as PNG files, and every corpus picture as SVG, into DIR, to look at them.

use std::path::{Path, PathBuf};

use cpsolve_models::run::{RunOptions, Status};
use cpsolve_puzzles::outcome::Outcome;
use cpsolve_puzzles::{compte, minesweeper, numbermatch};
use roxmltree::{Document, Node};

fn corpus(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus").join(kind);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the corpus directory exists")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("puz" | "mine")))
        .collect();
    files.sort();
    files
}

/// The outcome of one corpus file, or `None` for a file that is an input error.
fn solve(path: &Path) -> Option<Outcome> {
    let text = std::fs::read_to_string(path).expect("readable");
    let options = RunOptions { picture: true, ..RunOptions::default() };
    if path.extension().is_some_and(|e| e == "mine") {
        return minesweeper::solve_mine_file(&text, &options).ok();
    }
    let file = cpsolve_dsl::parse(&text).expect("corpus files parse");
    let kind = path.parent().and_then(Path::file_name).and_then(|n| n.to_str()).expect("a kind directory");
    match kind {
        "minesweeper" => minesweeper::solve(&file, &options).ok(),
        "numbermatch" => numbermatch::solve(&file, &options).ok(),
        "compte" => compte::solve(&file, &options).ok(),
        _ => unreachable!("only the three kinds"),
    }
}

fn solve_text(kind: &str, source: &str) -> Outcome {
    let file = cpsolve_dsl::parse(source).expect("parses");
    let options = RunOptions { picture: true, ..RunOptions::default() };
    match kind {
        "minesweeper" => minesweeper::solve(&file, &options),
        "numbermatch" => numbermatch::solve(&file, &options),
        _ => compte::solve(&file, &options),
    }
    .expect("a valid model")
}

fn svg(outcome: &Outcome) -> &str {
    outcome.picture.as_deref().expect("a picture of every answer but \"no solution\"")
}

/// The outcome of a corpus file that has a picture: no input error, not unsatisfiable.
fn drawn(path: &Path) -> Option<Outcome> {
    let outcome = solve(path)?;
    if outcome.status == Status::Unsatisfiable {
        assert!(outcome.picture.is_none(), "{}: no solution, no picture", path.display());
        return None;
    }
    Some(outcome)
}

fn class_is(n: &Node<'_, '_>, class: &str) -> bool {
    n.attribute("class") == Some(class)
}

/// Parses a picture and checks what every picture has: an `svg` root with a size and a
/// title, and text only in `text` and `title` elements.
fn parse(svg: &str) -> Document<'_> {
    let doc = Document::parse(svg).unwrap_or_else(|e| panic!("the picture is XML: {e}\n{svg}"));
    let root = doc.root_element();
    assert!(root.has_tag_name(("http://www.w3.org/2000/svg", "svg")), "the root is an SVG element");
    for size in ["width", "height"] {
        let v: u32 = root.attribute(size).and_then(|v| v.parse().ok()).expect("a whole size");
        assert!(v > 0 && v < 20_000, "{size} {v}");
    }
    assert!(root.children().any(|n| n.has_tag_name("title")), "a title");
    doc
}

/// The text of an element, without the line breaks the `svg` crate puts around it (an SVG
/// renderer drops them too).
fn text_of<'a>(n: &Node<'a, '_>) -> Option<&'a str> {
    n.text().map(str::trim)
}

fn attr(n: &Node<'_, '_>, name: &str) -> f64 {
    n.attribute(name).and_then(|v| v.parse().ok()).unwrap_or_else(|| panic!("a number in {name}"))
}

fn minesweeper_structure(outcome: &Outcome, name: &str) {
    let doc = parse(svg(outcome));
    let json = &outcome.json;
    let rows = json["probabilities"].as_array().expect("probabilities");
    let (rows, cols) = (rows.len(), rows[0].as_array().map_or(0, Vec::len));
    let board = doc.descendants().find(|n| n.attribute("id") == Some("board")).expect("a board");
    let cells = board.descendants().filter(|n| class_is(n, "cell")).count();
    assert_eq!(cells, rows * cols, "{name}: one square per cell");
    let in_board = |class: &str| board.descendants().filter(|n| class_is(n, class)).count();
    let listed = |key: &str| json[key].as_array().map_or(0, Vec::len);
    assert_eq!(in_board("mine"), listed("mines"), "{name}: one mine per certain mine");
    assert_eq!(in_board("safe"), listed("safe"), "{name}: one check per certain safe cell");
    let flags = outcome.text.lines().skip(2).flat_map(str::split_whitespace).filter(|w| *w == "F").count();
    assert_eq!(in_board("flag"), flags, "{name}: one pennant per flag");
    // Every covered cell that is not certain shows the text answer's percentage.
    let percentages = |s: &str| s.split_whitespace().filter(|w| w.ends_with('%')).count();
    let text_cells: usize = outcome.text.lines().skip(2).map(percentages).sum();
    let drawn =
        board.descendants().filter(|n| n.is_text() && n.text().is_some_and(|t| t.trim().ends_with('%'))).count();
    assert_eq!(drawn, text_cells, "{name}: the percentages of the text answer");
    let legend = doc.descendants().find(|n| n.attribute("id") == Some("legend")).expect("a legend");
    let legend_text: String = legend.descendants().filter_map(|n| text_of(&n)).collect::<Vec<_>>().join(" ");
    for word in ["0%", "50%", "100%", "certain safe", "certain mine", "flag"] {
        assert!(legend_text.contains(word), "{name}: the legend says {word}");
    }
    let title = doc.root_element().children().find(|n| n.has_tag_name("title")).and_then(|n| n.text());
    assert!(title.is_some_and(|t| t.starts_with(outcome.text.lines().next().unwrap_or("?"))));
}

#[test]
fn minesweeper_pictures_have_the_answers_structure() {
    let files = corpus("minesweeper");
    assert!(files.len() >= 8);
    let mut checked = 0;
    for path in &files {
        if let Some(outcome) = drawn(path) {
            minesweeper_structure(&outcome, &path.display().to_string());
            checked += 1;
        }
    }
    assert!(checked >= 7, "every position with a layout is checked");
}

/// The numbers of a step line `100 × 4 = 400`: the operands and the result.
fn step_numbers(step: &str) -> Vec<u128> {
    step.split_whitespace().filter_map(|w| w.parse().ok()).collect()
}

fn compte_structure(outcome: &Outcome, tiles: &[u128], name: &str) {
    let doc = parse(svg(outcome));
    let json = &outcome.json;
    let solutions = json["solutions"].as_array().cloned().unwrap_or_default();
    let trees: Vec<Node<'_, '_>> = doc.descendants().filter(|n| class_is(n, "tree")).collect();
    assert_eq!(trees.len(), solutions.len().min(12), "{name}: one tree per solution (at most 12)");
    for (tree, steps) in trees.iter().zip(&solutions) {
        let steps: Vec<&str> = steps.as_array().expect("steps").iter().filter_map(|s| s.as_str()).collect();
        let leaves: Vec<u128> = tree
            .descendants()
            .filter(|n| class_is(n, "tile"))
            .map(|n| n.next_sibling_element().and_then(|t| text_of(&t)).and_then(|t| t.parse().ok()).expect("a value"))
            .collect();
        let ops = tree.descendants().filter(|n| class_is(n, "step")).count();
        let discs = tree.descendants().filter(|n| class_is(n, "op")).count();
        // A lone tile is the whole solution (one "step" that is the tile itself).
        let operations = if steps.len() == 1 && !steps[0].contains('=') { 0 } else { steps.len() };
        assert_eq!(ops, operations, "{name}: one inner node per step");
        assert_eq!(discs, operations, "{name}: one operation disc per step");
        assert_eq!(leaves.len(), operations + 1, "{name}: tree nodes = tiles used + operations");
        let mut pool = tiles.to_vec();
        for v in &leaves {
            let at = pool.iter().position(|t| t == v).unwrap_or_else(|| panic!("{name}: leaf {v} is a tile"));
            pool.swap_remove(at);
        }
        // The inner nodes carry the steps' results, the root the value reached.
        let mut results: Vec<u128> = tree
            .descendants()
            .filter(|n| class_is(n, "step"))
            .map(|n| n.next_sibling_element().and_then(|t| text_of(&t)).and_then(|t| t.parse().ok()).expect("a value"))
            .collect();
        let mut expected: Vec<u128> = steps.iter().filter_map(|s| step_numbers(s).last().copied()).collect();
        results.sort_unstable();
        expected.sort_unstable();
        if operations > 0 {
            assert_eq!(results, expected, "{name}: the steps' results");
        }
    }
    if let Some(best) = json["best"].as_u64() {
        if !solutions.is_empty() {
            let captions: String = doc
                .descendants()
                .filter(|n| class_is(n, "solution"))
                .filter_map(|n| text_of(&n.first_element_child()?))
                .collect();
            assert!(captions.contains(&best.to_string()), "{name}: the value reached is named");
        }
    }
}

fn tiles_of(source: &str) -> Vec<u128> {
    let line = source.lines().find(|l| l.starts_with("compte")).expect("a compte line");
    let (tiles, _) = line["compte".len()..].split_once("->").expect("->");
    tiles.split_whitespace().map(|t| t.parse().expect("a tile")).collect()
}

#[test]
fn compte_pictures_are_the_solutions_trees() {
    let files = corpus("compte");
    assert!(files.len() >= 4);
    for path in &files {
        let source = std::fs::read_to_string(path).expect("readable");
        let outcome = drawn(path).expect("a game with a picture");
        compte_structure(&outcome, &tiles_of(&source), &path.display().to_string());
    }
    for source in
        ["compte 25 4 100 2 -> 50\nsolve all", "compte 7 3 -> 7", "compte 2 4 -> 7", "compte 1 2 3 -> 6\nsolve count"]
    {
        compte_structure(&solve_text("compte", source), &tiles_of(source), source);
    }
}

fn numbermatch_structure(outcome: &Outcome, start_digits: usize, name: &str) {
    let doc = parse(svg(outcome));
    let moves = outcome.json["moves"].as_array().cloned().unwrap_or_default();
    let frames: Vec<Node<'_, '_>> = doc.descendants().filter(|n| class_is(n, "frame")).collect();
    assert_eq!(frames.len(), moves.len() + 1, "{name}: one frame per move and the end");
    let digits = |f: &Node<'_, '_>| f.descendants().filter(|n| class_is(n, "digit")).count();
    assert_eq!(digits(&frames[0]), start_digits, "{name}: the start grid's digits");
    let mut left = start_digits;
    for (k, (frame, m)) in frames.iter().zip(&moves).enumerate() {
        let picks = frame.descendants().filter(|n| class_is(n, "pick")).count();
        assert_eq!(digits(frame), left, "{name}: frame {}", k + 1);
        if m.get("match").is_some() {
            assert_eq!(picks, 2, "{name}: a match rings two digits");
            left -= 2;
        } else {
            assert_eq!(picks, 0, "{name}: an add rings nothing");
            left *= 2;
        }
        let caption = frame.first_element_child().and_then(|n| text_of(&n)).unwrap_or_default();
        assert!(caption.starts_with(&format!("{}. ", k + 1)), "{name}: frame {} says {caption}", k + 1);
    }
    let last = frames.last().expect("a last frame");
    assert_eq!(digits(last), left, "{name}: the end");
    if outcome.json["won"] == true {
        assert_eq!(left, 0, "{name}: a win ends with an empty grid");
    }
}

fn digits_of(source: &str) -> usize {
    source
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("numbermatch") && !l.starts_with("option"))
        .flat_map(|l| l.chars())
        .filter(|c| c.is_ascii_digit())
        .count()
}

#[test]
fn numbermatch_pictures_are_one_frame_per_move() {
    let files = corpus("numbermatch");
    assert!(files.len() >= 4);
    for path in &files {
        let source = std::fs::read_to_string(path).expect("readable");
        let Some(outcome) = drawn(path) else { continue };
        numbermatch_structure(&outcome, digits_of(&source), &path.display().to_string());
    }
}

#[test]
fn pictures_are_deterministic() {
    for kind in ["minesweeper", "numbermatch", "compte"] {
        for path in corpus(kind) {
            if let Some(first) = drawn(&path) {
                let again = solve(&path).expect("the same answer");
                assert_eq!(first.picture, again.picture, "{}", path.display());
                if let Some(dir) = std::env::var_os("PICTURES_PNG") {
                    let name = path.file_stem().and_then(|n| n.to_str()).expect("a name");
                    std::fs::write(Path::new(&dir).join(format!("{kind}-{name}.svg")), svg(&first)).expect("written");
                }
            }
        }
    }
}

/// Draws `svg` with resvg (system fonts for the text); writes it as `name.png` into
/// `$PICTURES_PNG` when that is set.
fn draw(svg: &str, name: &str) -> resvg::tiny_skia::Pixmap {
    let mut options = resvg::usvg::Options::default();
    options.fontdb_mut().load_system_fonts();
    let tree = resvg::usvg::Tree::from_str(svg, &options).expect("resvg reads the picture");
    let size = tree.size().to_int_size();
    let mut pixmap = resvg::tiny_skia::Pixmap::new(size.width(), size.height()).expect("a pixmap");
    resvg::render(&tree, resvg::tiny_skia::Transform::default(), &mut pixmap.as_mut());
    if let Some(dir) = std::env::var_os("PICTURES_PNG") {
        pixmap.save_png(Path::new(&dir).join(format!("{name}.png"))).expect("PNG written");
    }
    pixmap
}

fn rgb(pixmap: &resvg::tiny_skia::Pixmap, x: f64, y: f64) -> (u8, u8, u8) {
    let p = pixmap.pixel(x.round() as u32, y.round() as u32).expect("inside the picture");
    (p.red(), p.green(), p.blue())
}

/// The share of pixels that are not white.
fn ink(pixmap: &resvg::tiny_skia::Pixmap) -> f64 {
    let inked = pixmap.pixels().iter().filter(|p| (p.red(), p.green(), p.blue()) != (255, 255, 255)).count();
    inked as f64 / pixmap.pixels().len() as f64
}

#[test]
fn minesweeper_pictures_draw() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus/minesweeper");
    for name in ["beginner", "expert", "flags-and-marks", "no-total"] {
        let outcome = solve(&dir.join(format!("{name}.puz"))).expect("a valid position");
        let pixmap = draw(svg(&outcome), &format!("minesweeper-{name}"));
        assert!(ink(&pixmap) > 0.08, "{name}: the board is drawn");
        let doc = parse(svg(&outcome));
        // The centre of a certain mine's ball is black; a certain safe cell's square is the
        // light end of the scale around its check mark.
        let board = doc.descendants().find(|n| n.attribute("id") == Some("board")).expect("a board");
        for mine in board.descendants().filter(|n| class_is(n, "mine")) {
            let ball = mine.children().find(|n| n.has_tag_name("circle")).expect("a ball");
            assert_eq!(rgb(&pixmap, attr(&ball, "cx"), attr(&ball, "cy")), (0, 0, 0), "{name}: a black mine");
        }
        for cell in board.descendants().filter(|n| class_is(n, "cell")) {
            let check = cell.next_sibling_element().filter(|n| class_is(n, "safe"));
            if check.is_some() {
                let (x, y) = (attr(&cell, "x"), attr(&cell, "y"));
                assert_eq!(rgb(&pixmap, x + 4.0, y + 4.0), (255, 255, 204), "{name}: a safe cell's corner");
            }
        }
    }
    // The beginner position has certain mines and certain safe cells to look at.
    let beginner = solve(&dir.join("beginner.puz")).expect("valid");
    assert!(!beginner.json["mines"].as_array().expect("mines").is_empty());
    assert!(!beginner.json["safe"].as_array().expect("safe").is_empty());
}

#[test]
fn compte_and_numbermatch_pictures_draw() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus");
    for (kind, name) in [("compte", "compte-952"), ("compte", "compte-closest-tie"), ("numbermatch", "one-add")] {
        let outcome = solve(&dir.join(kind).join(format!("{name}.puz"))).expect("a valid game");
        let pixmap = draw(svg(&outcome), name);
        assert!(ink(&pixmap) > 0.03, "{name}: something is drawn");
        let doc = parse(svg(&outcome));
        // The first leaf tile is dark blue at its corner; a ringed digit's ring is red.
        if let Some(tile) = doc.descendants().find(|n| class_is(n, "tile")) {
            let (x, y) = (attr(&tile, "x"), attr(&tile, "y"));
            assert_eq!(rgb(&pixmap, x + 6.0, y + 6.0), (0x1f, 0x3f, 0x6e), "{name}: a tile");
        }
        if let Some(ring) = doc.descendants().find(|n| class_is(n, "pick")) {
            let (r, g, b) = rgb(&pixmap, attr(&ring, "cx") + attr(&ring, "r"), attr(&ring, "cy"));
            assert!(r > 150 && g < 80 && b < 80, "{name}: a red ring ({r}, {g}, {b})");
        }
    }
}

/// A text or JSON run draws nothing: on Minesweeper's expert board the picture once cost
/// five times the analysis.
#[test]
fn only_a_picture_run_draws() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/corpus/minesweeper/expert.puz");
    let text = std::fs::read_to_string(path).expect("readable");
    let file = cpsolve_dsl::parse(&text).expect("parses");
    let plain = minesweeper::solve(&file, &RunOptions::default()).expect("an answer");
    assert!(plain.picture.is_none());
}
