//! The reconstructed Perryville map against every fact the rulebook gives about it (digest §6),
//! and the loader's errors on broken files.

use caisson_blindswords::map::{builtin, load, render_map_svg};
use caisson_hexmap::{Hex, Hexside, Map, TacticalTerrain};
use caisson_kernel::data::DataDir;

fn h(s: &str) -> Hex {
    s.parse().expect("test hex")
}

fn perryville() -> Map {
    builtin("perryville").expect("the built-in Perryville map loads")
}

#[test]
fn grid_is_columns_10_to_40_and_rows_00_to_40() {
    let m = perryville();
    assert_eq!(m.hexes().count(), 31 * 41);
    assert!(m.contains(h("1000")) && m.contains(h("4040")) && !m.contains(h("0920")) && !m.contains(h("1041")));
    assert!(m.reconstructed, "the map must say it is a reconstruction");
    assert!(m.source.contains("Reconstructed"), "{}", m.source);
}

/// EX 2.10a: the six example hexes of the elevation levels; every hex at a level 1–6.
#[test]
fn ex_2_10a_example_levels() {
    let m = perryville();
    for (hex, level) in [("1611", 1), ("1612", 2), ("1712", 3), ("1614", 4), ("1714", 5), ("1813", 6)] {
        assert_eq!(m.elevation(h(hex)), Some(level), "{hex}");
    }
    assert!(m.hexes().all(|x| m.elevation(x).is_some_and(|l| (1..=6).contains(&l))));
}

/// EX 2.10n: 2316 three levels below 2216 and 2217; a steep slope towards 2216, a slope towards
/// 2217; 2217 two levels above 2218 with no slope at all.
#[test]
fn ex_2_10n_slope_examples() {
    let m = perryville();
    let level = |s: &str| i16::from(m.elevation(h(s)).expect("level"));
    assert_eq!(level("2216") - level("2316"), 3);
    assert_eq!(level("2217") - level("2316"), 3);
    assert_eq!(level("2217") - level("2218"), 2);
    assert!(m.hexside(h("2216"), h("2316")).contains(Hexside::STEEP_SLOPE));
    let side = m.hexside(h("2217"), h("2316"));
    assert!(side.contains(Hexside::SLOPE) && !side.contains(Hexside::STEEP_SLOPE));
    assert!(!m.hexside(h("2217"), h("2218")).intersects(Hexside::ANY_SLOPE));
}

/// Every slope joins hexes of different levels (EX 2.10m: one side is higher).
#[test]
fn slopes_join_different_levels() {
    let m = perryville();
    for a in m.hexes() {
        for (_, b) in m.neighbors(a) {
            if m.hexside(a, b).intersects(Hexside::ANY_SLOPE) {
                assert_ne!(m.elevation(a), m.elevation(b), "{a}/{b}");
            }
        }
    }
}

/// EX 9.1a: 2621 and 2622 at level 2 (the firing-up example); EX 2.10j: 2626 is the orchard and
/// the only one.
#[test]
fn ex_9_1a_and_2_10j_hexes() {
    let m = perryville();
    assert_eq!(m.elevation(h("2621")), Some(2));
    assert_eq!(m.elevation(h("2622")), Some(2));
    assert_eq!(m.tactical(h("1110")), Some(TacticalTerrain::Woods));
    let orchards: Vec<Hex> = m.hexes().filter(|x| m.tactical(*x) == Some(TacticalTerrain::Orchard)).collect();
    assert_eq!(orchards, [h("2626")]);
}

/// Digest §6.3: the named hexes carry their names; objectives and entry hexes are on the map.
#[test]
fn named_hexes_and_objectives() {
    let m = perryville();
    for (hex, name) in [
        ("2012", "Starkweather Hill"),
        ("2419", "Squire Bottom"),
        ("2127", "Harmon"),
        ("2525", "Sam Bottom"),
        ("2929", "Edwards"),
        ("2332", "Watkins"),
    ] {
        assert_eq!(m.place_name(h(hex)), Some(name), "{hex}");
    }
    for hex in ["2428", "3729", "3908", "4017", "4009", "1715", "1011", "1025", "3440", "3736", "4031", "4026"] {
        assert!(m.contains(h(hex)), "{hex}");
    }
    // 16.1: Walker enters between 1018 and 1025, on the west edge; 3440 is on the south edge.
    assert!((18..=25).all(|r| m.contains(Hex::new(10, r))));
    assert_eq!(h("3440").row, 40);
}

/// 16.1b, 16.1c: Perryville town hexes exist, 3729 (an objective) is one of them; no Union unit
/// of the 16.1 set-up starts within 8 hexes of the town (else Powell and Smith would be released
/// before play), and 3736, Wheeler's anchor, lies within 5 hexes of it.
#[test]
fn perryville_town_fits_the_scenarios() {
    let m = perryville();
    let town: Vec<Hex> = m.hexes().filter(|x| m.tactical(*x) == Some(TacticalTerrain::Town)).collect();
    assert!(town.len() >= 8 && town.contains(&h("3729")));
    let near = |x: Hex, n: u16| town.iter().any(|t| m.distance(*t, x) <= n);
    let union_16_1 =
        "2209 2310 2013 1913 2309 2212 2113 2114 1912 2012 2014 1715 1714 1915 1815 2215 2614 2216 2116 2217 \
                      2617 2017 2118 2219 2519 2218 1925 1826 1827 1627 1426 1024 1027 1328 1528 1619 1620";
    for hex in union_16_1.split_whitespace() {
        assert!(!near(h(hex), 8), "Union set-up hex {hex} is within 8 hexes of Perryville");
    }
    assert!(near(h("3736"), 5));
}

/// EX 3.1a: artillery may be in woods only on a road or trail. No artillery set-up hex of
/// 16.0–16.2 (nor a hex where several units stack) is woods.
#[test]
fn artillery_set_up_hexes_are_not_woods() {
    let m = perryville();
    let artillery = "1125 2627 1025 2309 2012 1815 2216 2218 1925 1826 1620 2605 3413 3108 2915 3016 2924 2928 3218 \
                     3221 3324 3817 2927 1920";
    for hex in artillery.split_whitespace() {
        assert_ne!(m.tactical(h(hex)), Some(TacticalTerrain::Woods), "{hex}");
    }
}

/// EX 2.10k, 2.10l: a road crosses the Chaplin only at a ford or a bridge; fords and bridges are
/// on the river.
#[test]
fn roads_cross_the_chaplin_at_fords_and_bridges() {
    let m = perryville();
    let mut crossings = 0;
    for a in m.hexes() {
        for (_, b) in m.neighbors(a) {
            let side = m.hexside(a, b);
            if side.contains(Hexside::TACTICAL_RIVER) && side.intersects(Hexside::ROAD | Hexside::TRAIL) {
                assert!(side.intersects(Hexside::FORD | Hexside::BRIDGE), "{a}/{b}");
                crossings += 1;
            }
        }
    }
    assert!(crossings >= 2 * 3, "three crossings, each seen from both sides");
    assert!(m.named_hexsides("Chaplin River").len() > 40);
}

#[test]
fn the_map_renders_one_polygon_per_hex() {
    let svg = render_map_svg("perryville").expect("renders");
    assert_eq!(svg.matches("<polygon class=\"hex\"").count(), 31 * 41);
    assert!(svg.contains("RECONSTRUCTED") && svg.contains("Starkweather Hill") && svg.contains("id=\"contours\""));
    assert!(render_map_svg("gettysburg").expect_err("unknown").contains("known: perryville"));
}

/// A copy of the data folder with `map.txt` changed by `edit`.
fn broken(name: &str, edit: impl Fn(&str) -> String) -> (tempfile::TempDir, String) {
    let tmp = tempfile::Builder::new().prefix(&format!("caisson-bs-map-{name}-")).tempdir().expect("temp dir");
    let dir = tmp.path();
    std::fs::create_dir_all(dir.join("perryville")).expect("temp dir");
    let text = DataDir::builtin().join("perryville/map.txt").read().expect("built in");
    std::fs::write(dir.join("perryville/map.txt"), edit(&text)).expect("write");
    let err = load(&DataDir::on_disk(dir), "perryville").expect_err("broken file").to_string();
    (tmp, err)
}

/// A broken map file is an error naming the file, the line and the hex, never a panic.
#[test]
fn broken_files_name_file_line_and_hex() {
    let text = DataDir::builtin().join("perryville/map.txt").read().expect("built in");
    let line_of = |prefix: &str, after: &str| {
        let start = text.lines().position(|l| l.trim() == after).expect("section");
        text.lines().enumerate().skip(start).find(|(_, l)| l.starts_with(prefix)).map(|(i, _)| i + 1).expect("line")
    };
    // A level 7 in column 12 of [elevation], row 00.
    let elev_line = line_of("12 ", "[elevation]");
    let (dir, e) = broken("level", |t| {
        t.lines()
            .enumerate()
            .map(|(i, l)| if i + 1 == elev_line { format!("12 7{}", &l[4..]) } else { l.to_string() })
            .collect::<Vec<_>>()
            .join("\n")
    });
    assert!(e.contains(&format!("{}:{elev_line}:", dir.path().join("perryville/map.txt").display())), "{e}");
    assert!(e.contains("hex 1200") && e.contains("level 7"), "{e}");
    // An unknown terrain code.
    let terr_line = line_of("15 ", "[terrain]");
    let (_, e) = broken("terrain", |t| {
        t.lines()
            .enumerate()
            .map(|(i, l)| if i + 1 == terr_line { format!("15 X{}", &l[4..]) } else { l.to_string() })
            .collect::<Vec<_>>()
            .join("\n")
    });
    assert!(e.contains(&format!(":{terr_line}:")) && e.contains("hex 1500") && e.contains("'X'"), "{e}");
    // A slope between two hexes of one level, and a GCACW word on a tactical map.
    let (_, e) = broken("slope", |t| format!("{t}\n[hexsides]\nslope: 1000/1001\n"));
    assert!(e.contains("1000/1001") && e.contains("same elevation"), "{e}");
    let (_, e) = broken("pike", |t| format!("{t}\n[routes]\npike: 1000 1001\n"));
    assert!(e.contains("`pike` is not a feature of tactical maps"), "{e}");
}
