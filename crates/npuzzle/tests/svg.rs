//! Pictures: well-formed SVG that shows every tile where it stands, and animations that
//! end where the moves end.

use npuzzle::scramble::{uniform, walk, Rng};
use npuzzle::svg::{animate, render, Scheme, Style};
use npuzzle::Board;

/// Each tile's number and the translation of its group, read back from the XML.
fn tiles(svg: &str) -> Vec<(u8, f64, f64)> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    root.children()
        .filter(|n| n.has_tag_name("g"))
        .map(|g| {
            let t = g
                .children()
                .find(|n| n.has_tag_name("text"))
                .and_then(|n| n.text())
                .expect("a number")
                .parse()
                .unwrap();
            let tr = g.attribute("transform").unwrap();
            let xy = tr.trim_start_matches("translate(").trim_end_matches(')');
            let (x, y) = xy.split_once(',').unwrap();
            (t, x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

#[test]
fn every_tile_is_drawn_where_it_stands() {
    let mut rng = Rng::new(8);
    for size in ["2x2", "3x3", "5x3", "4x4", "10x10", "16x16"] {
        let goal = Board::solved(size.parse().unwrap());
        for scheme in [Scheme::Plain, Scheme::Rows, Scheme::Fringe] {
            let board = uniform(&goal, &mut rng);
            let style = Style {
                scheme,
                ..Style::new(&goal)
            };
            let drawn = tiles(&render(&board, &style));
            assert_eq!(drawn.len(), board.cells().len() - 1, "{size}");
            let w = board.size().width();
            for (t, x, y) in drawn {
                let at = board.cells().iter().position(|&c| c == t).unwrap();
                assert_eq!((x, y), ((at % w) as f64 * 100.0, (at / w) as f64 * 100.0));
            }
        }
    }
}

#[test]
fn animations_play_the_moves() {
    let goal = Board::solved("4x4".parse().unwrap());
    let (board, moves) = walk(&goal, 30, &mut Rng::new(4)).unwrap();
    let undo = npuzzle::sequence::invert(&moves);
    let svg = animate(&board, &undo, &Style::new(&goal)).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
    let anims: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("animateTransform"))
        .collect();
    assert_eq!(anims.len(), 15);
    for a in anims {
        let times: Vec<&str> = a.attribute("keyTimes").unwrap().split(';').collect();
        let values: Vec<&str> = a.attribute("values").unwrap().split(';').collect();
        assert_eq!(times.len(), values.len());
        assert_eq!(times.len(), undo.len() + 2);
        assert_eq!(times[0], "0.0000");
        assert_eq!(*times.last().unwrap(), "1");
        // Every tile ends on its goal cell: the animation solves the board.
        let tile: u8 = a
            .parent()
            .unwrap()
            .children()
            .find(|n| n.has_tag_name("text"))
            .unwrap()
            .text()
            .unwrap()
            .parse()
            .unwrap();
        let home = goal.cells().iter().position(|&c| c == tile).unwrap();
        assert_eq!(
            *values.last().unwrap(),
            format!(
                "{},{}",
                (home % 4) as f64 * 100.0,
                (home / 4) as f64 * 100.0
            )
        );
    }
    // An illegal move gives no animation.
    assert!(animate(&goal, &[npuzzle::Direction::Up], &Style::new(&goal)).is_none());
}
