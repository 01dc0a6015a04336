//! The reconstructed Hood Strikes North map (data/hsn/map.txt): it loads, and it agrees with
//! every map fact the rulebook gives (digest §3.2, §6, §7 A1/A37, §8 T27).

use std::collections::{BTreeSet, VecDeque};
use std::path::PathBuf;

use caisson_hexmap::format::{self, FormatError};
use caisson_hexmap::{render, Hex, HexFeature, Hexside, Map, Terrain};

/// Playable hexes in the file: the full grid (29 × 34 + 29 × 33 = 1,943) — every hex of the
/// ranges is whole; the rulebook names hexes in all four edge rows and columns.
const PLAYABLE: usize = 1943;

fn path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/hsn/map.txt")
}

fn text() -> String {
    std::fs::read_to_string(path()).expect("data/hsn/map.txt is readable")
}

fn map() -> Map {
    match format::load(&path()) {
        Ok(m) => m,
        Err(e) => panic!("{e}"),
    }
}

fn h(s: &str) -> Hex {
    s.parse().expect("hex id")
}

fn hexes(list: &str) -> Vec<Hex> {
    list.split_whitespace().map(h).collect()
}

#[test]
fn loads_with_the_expected_grid() {
    let m = map();
    assert_eq!(m.id, "hsn");
    assert_eq!(m.name, "Hood Strikes North");
    assert_eq!(m.columns(), (1, 58));
    assert_eq!((m.rows_in(1), m.rows_in(2)), (34, 33));
    assert!(m.reconstructed, "the map is a reconstruction and must say so");
    assert!(m.source.contains("Reconstructed"));
    assert_eq!(m.hexes().count(), PLAYABLE);
    assert!(m.hexes().all(|x| m.terrain(x) != Some(Terrain::Water)));
    if let Ok(out) = std::env::var("HSN_SVG_OUT") {
        std::fs::write(out, render::svg(&m)).expect("write svg");
    }
}

/// Digest §8 T27.
#[test]
fn hex_geometry_matches_the_rulebook_examples() {
    let m = map();
    let mut n: Vec<Hex> = m.neighbors(h("4610")).map(|(_, x)| x).collect();
    n.sort();
    assert_eq!(n, hexes("4510 4511 4609 4611 4710 4711"));
    let n: Vec<Hex> = m.neighbors(h("5707")).map(|(_, x)| x).collect();
    for want in hexes("5806 5807 5606 5607 5706 5708") {
        assert!(n.contains(&want), "{want}");
    }
    assert_eq!(h("5609").distance(h("5707")), 3);
    assert_eq!(h("5609").distance(h("5706")), 4);
    assert_eq!(h("4610").distance(h("4908")), 4);
}

/// Every hex the rulebook names (digest §6.2, §6.3): set-ups, places, entry and exit hexes.
const NAMED_HEXES: &str = "0101 0102 0103 0104 0105 0106 0107 0108 0109 0110 0111 0112 0113 0114 0118 0119 0120
    0125 0131 0201 0220 0221 0224 0319 0324 0420 0423 0501 0511 0523 0525 0711 0721 0820 1022 1211 1212 1213
    1220 1303 1311 1313 1314 1317 1417 1505 1514 1519 1604 1614 1615 1714 1715 1719 1730 1814 1913 1915 1916
    2017 2107 2114 2115 2202 2213 2219 2314 2413 2613 2621 2714 2715 2814 2914 2915 2925 3027 3213 3233 3406
    3413 3513 3612 3712 3811 3818 3911 3912 4010 4111 4113 4210 4311 4322 4401 4410 4433 4510 4511 4534 4606
    4610 4611 4730 4823 4908 4910 4918 4934 5008 5027 5028 5107 5108 5110 5129 5131 5134 5204 5206 5208 5209
    5229 5230 5231 5232 5233 5303 5307 5308 5327 5328 5331 5334 5408 5424 5433 5504 5505 5506 5507 5509 5511
    5512 5514 5519 5523 5603 5604 5605 5606 5607 5609 5610 5611 5703 5705 5706 5707 5708 5710 5712 5805 5806
    5807 5808 5809 5810 5829 5833";

#[test]
fn every_named_hex_is_playable_land() {
    let m = map();
    for x in hexes(NAMED_HEXES) {
        let t = m.terrain(x);
        assert!(t.is_some() && t != Some(Terrain::Water), "{x} is {t:?}");
    }
    for col in 1..=58 {
        for row in [1, m.rows_in(col)] {
            assert!(m.contains(Hex::new(col, row)), "edge hex {col:02}{row:02}");
        }
    }
}

#[test]
fn places_are_where_the_gazetteer_puts_them() {
    let m = map();
    for (hex, name) in [
        ("1715", "Columbia"),
        ("4010", "Franklin"),
        ("5706", "Nashville"),
        ("5707", "Nashville"),
        ("5232", "Murfreesboro"),
        ("2914", "Spring Hill"),
        ("0423", "Lynnville"),
        ("0711", "Mt. Pleasant"),
        ("1730", "Lewisburg"),
        ("4322", "Triune"),
        ("4918", "Nolensville"),
        ("4910", "Brentwood"),
        ("3406", "Hillsboro"),
        ("3027", "Chapel Hill"),
        ("5523", "Smyrna"),
        ("5519", "La Vergne"),
        ("5514", "Antioch"),
        ("5327", "Florence"),
        ("3213", "Thompson's Station"),
        ("1913", "Duck River Station"),
        ("0525", "Lynnville Station"),
        ("1714", "Fort Mizner"),
        ("4111", "Fort Granger"),
        ("5131", "Fortress Rosecrans-West"),
        ("5231", "Fortress Rosecrans-East"),
        ("5607", "Fort Negley"),
        ("5603", "Hyde's Ferry"),
        ("5604", "Fort Garesché"),
        ("5605", "Fort Sill"),
        ("5606", "Fort Morton"),
        ("5507", "Fort Casino"),
        ("5807", "Reservoir"),
        ("2202", "Kinderhook"),
        ("4606", "Beechville"),
        ("0201", "Gordonsburg"),
        ("1505", "Williamsport"),
        ("2107", "Santa Fe"),
        ("1719", "Davis Ford"),
        ("2213", "Rutherford Creek"),
        ("0113", "Rattlesnake Falls"),
        ("5129", "Overall Creek"),
        ("4410", "Hollow Tree Gap"),
        ("3911", "Carter House"),
        ("2925", "Forrest's Birthplace"),
        ("4730", "Salem"),
        ("4934", "Maple Grove"),
    ] {
        assert_eq!(m.place_name(h(hex)), Some(name), "{hex}");
    }
    for x in hexes("5707 4910 3213 1913 0525 5514 5519 5523 5327 5232") {
        assert!(m.has_feature(x, HexFeature::Station), "station {x}");
    }
    let stations: BTreeSet<Hex> =
        m.featured_hexes().filter(|(_, f)| f.contains(&HexFeature::Station)).map(|(x, _)| x).collect();
    assert_eq!(stations.len(), 10, "no stations beyond the rulebook's");
    for x in hexes("1714 4111 5504 5505 5506") {
        assert!(m.has_feature(x, HexFeature::Redoubt), "redoubt {x}");
    }
    for x in hexes("5131 5231 5607") {
        assert!(m.has_feature(x, HexFeature::FortA), "fort A {x}");
    }
    for x in hexes("5603 5604 5605 5606 5507 5708 5807") {
        assert!(m.has_feature(x, HexFeature::FortB), "fort B {x}");
    }
    for x in hexes("1715 4010 5232 5706 5707") {
        assert!(m.has_feature(x, HexFeature::Village), "town {x}");
    }
}

#[test]
fn terrain_facts_from_the_rules() {
    let m = map();
    assert_eq!(m.terrain(h("4610")), Some(Terrain::Rough));
    assert_eq!(m.terrain(h("5706")), Some(Terrain::City));
    assert_eq!(m.terrain(h("5707")), Some(Terrain::City));
    assert!(m.hexes().all(|x| m.terrain(x) != Some(Terrain::Mountain)));
}

fn all_sides(m: &Map) -> Vec<(Hex, Hex, Hexside)> {
    let mut out = Vec::new();
    for a in m.hexes() {
        for (d, b) in m.neighbors(a) {
            if d.index() < 3 {
                out.push((a, b, m.hexside(a, b)));
            }
        }
    }
    out
}

#[test]
fn the_cumberland_has_three_bridges_and_no_ford() {
    let m = map();
    let sides = all_sides(&m);
    let major: Vec<_> = sides.iter().filter(|s| s.2.contains(Hexside::MAJOR_RIVER)).collect();
    assert!(!major.is_empty());
    let mut bridges: Vec<(Hex, Hex)> = major
        .iter()
        .filter(|s| s.2.contains(Hexside::BRIDGE))
        .map(|s| if s.0 < s.1 { (s.0, s.1) } else { (s.1, s.0) })
        .collect();
    bridges.sort();
    assert_eq!(bridges, vec![(h("5706"), h("5805")), (h("5706"), h("5806")), (h("5707"), h("5806"))]);
    assert!(major.iter().all(|s| !s.2.intersects(Hexside::FORD | Hexside::DAM | Hexside::FERRY)));
    // 5805 and 5806 are cut off from Nashville except by the bridges.
    let north = region(&m, h("5805"), |f| !f.intersects(Hexside::RIVER));
    assert!(north.contains(&h("5806")) && !north.contains(&h("5706")) && !north.contains(&h("5807")));
    assert!(m.hexes().all(|x| !m.has_feature(x, HexFeature::Landing)));
    // No dams or ferries anywhere in HSN (HSN-B 10.0).
    assert!(sides.iter().all(|s| !s.2.intersects(Hexside::DAM | Hexside::FERRY)));
}

/// Hexes reachable from `start` across hexsides that `pass` allows.
fn region(m: &Map, start: Hex, pass: impl Fn(Hexside) -> bool) -> BTreeSet<Hex> {
    let mut seen = BTreeSet::from([start]);
    let mut queue = VecDeque::from([start]);
    while let Some(x) = queue.pop_front() {
        for (_, n) in m.neighbors(x) {
            if pass(m.hexside(x, n)) && seen.insert(n) {
                queue.push_back(n);
            }
        }
    }
    seen
}

#[test]
fn the_duck_and_the_harpeth_divide_the_map() {
    let m = map();
    assert!(m.hexside(h("1714"), h("1715")).contains(Hexside::MINOR_RIVER | Hexside::BRIDGE | Hexside::RAILROAD));
    assert!(m.hexside(h("4010"), h("4111")).contains(Hexside::MINOR_RIVER));
    // Without crossing a river, Columbia's side holds 1615 but not 1714, 1913 or 2613.
    let south = region(&m, h("1715"), |f| !f.intersects(Hexside::RIVER));
    for x in hexes("1615 0423 0711 1730 1519") {
        assert!(south.contains(&x), "{x} south of the Duck");
    }
    for x in hexes("1714 1913 2613 2914 4010 5707") {
        assert!(!south.contains(&x), "{x} north of the Duck");
    }
    // The Harpeth rises on the map, so only its hexsides at Franklin are checked.
    assert!(m.hexside(h("4010"), h("4110")).contains(Hexside::MINOR_RIVER | Hexside::BRIDGE | Hexside::PIKE));
    let franklin = region(&m, h("4010"), |f| !f.intersects(Hexside::RIVER));
    assert!(franklin.contains(&h("2914")) && franklin.contains(&h("3912")));
    // Davis Ford crosses the Duck next to 1719.
    assert!(m
        .neighbors(h("1719"))
        .any(|(_, n)| m.hexside(h("1719"), n).contains(Hexside::MINOR_RIVER | Hexside::FORD)));
}

#[test]
fn every_river_crossing_by_a_route_has_a_bridge_or_ford() {
    let m = map();
    for (a, b, f) in all_sides(&m) {
        if f.intersects(Hexside::RIVER) && f.intersects(Hexside::ANY_ROUTE) {
            assert!(f.intersects(Hexside::CROSSING), "{a}/{b}: a route crosses a river without a crossing");
        }
    }
}

fn route_path_exists(m: &Map, from: Hex, to: Hex, kind: Hexside) -> bool {
    region(m, from, |f| f.intersects(kind)).contains(&to)
}

#[test]
fn the_route_network_connects_the_map() {
    let m = map();
    assert!(route_path_exists(&m, h("1715"), h("5707"), Hexside::ROAD | Hexside::PIKE | Hexside::RAILROAD));
    assert!(route_path_exists(&m, h("1715"), h("5707"), Hexside::PIKE), "Columbia and Franklin pikes");
    assert!(route_path_exists(&m, h("5707"), h("0525"), Hexside::RAILROAD), "Nashville & Decatur");
    assert!(route_path_exists(&m, h("5707"), h("4934"), Hexside::RAILROAD), "Nashville & Chattanooga to the M path");
    // The N&C line passes its blockhouse hexes.
    for x in hexes("5610 5512 5514 5519 5523 5424 5328 5327 5232") {
        assert!(m.neighbors(x).any(|(_, n)| m.hexside(x, n).contains(Hexside::RAILROAD)), "rail at {x}");
    }
    // The south-edge pike hexes, and a pike path from north of the Duck to each (Sc 9 LOC).
    for x in hexes("0111 0125 0131") {
        assert!(route_path_exists(&m, h("2914"), x, Hexside::PIKE), "pike to {x}");
    }
    // Every village is on the road net reaching Columbia.
    let net = region(&m, h("1715"), |f| f.intersects(Hexside::ANY_ROUTE));
    for (x, f) in m.featured_hexes() {
        if f.contains(&HexFeature::Village) || f.contains(&HexFeature::Station) {
            let cut_off = x == h("5805") || x == h("5806");
            assert!(cut_off || net.contains(&x), "{} is not connected", m.label(x));
        }
    }
    // Entry and exit hexes on a route.
    for x in hexes("0111 0125 0131 5134 5233 5334 5433 5829 5833 4934 5805 5806") {
        assert!(m.neighbors(x).any(|(_, n)| m.hexside(x, n).intersects(Hexside::ANY_ROUTE)), "route at {x}");
    }
    // The Natchez Trace is a trail through its stops.
    for x in hexes("0501 2202 3406 4606") {
        assert!(m.neighbors(x).any(|(_, n)| m.hexside(x, n).contains(Hexside::TRAIL)), "trail at {x}");
    }
}

#[test]
fn counties_and_their_borders() {
    let m = map();
    for (hex, county) in [
        ("1715", "Maury"),
        ("2914", "Maury"),
        ("0711", "Maury"),
        ("4010", "Williamson"),
        ("4910", "Williamson"),
        ("5707", "Davidson"),
        ("5232", "Rutherford"),
        ("5519", "Rutherford"),
        ("1730", "Marshall"),
        ("0201", "Lewis"),
        ("0423", "Giles"),
    ] {
        assert_eq!(m.county(h(hex)), Some(county), "{hex}");
    }
    assert!(m.hexes().all(|x| m.county(x).is_some()), "every playable hex has a county");
    // Sc 6: Brentwood is near the Davidson line, with Williamson and Davidson neighbours.
    let around: BTreeSet<&str> = m.neighbors(h("4910")).filter_map(|(_, n)| m.county(n)).collect();
    assert!(around.contains("Davidson") && around.contains("Williamson"), "{around:?}");
    // Derived borders sit exactly between different counties.
    for (a, b, f) in all_sides(&m) {
        assert_eq!(f.contains(Hexside::COUNTY_BORDER), m.county(a) != m.county(b), "{a}/{b}");
    }
}

/// Rivers and creeks are written as chains: each hexside shares a corner with the next.
#[test]
fn rivers_are_continuous_chains() {
    let text = text();
    let mut chains = 0;
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("");
        let Some((head, items)) = line.split_once(':') else {
            continue;
        };
        let word = head.split_whitespace().next().unwrap_or("");
        if !["major-river", "minor-river", "creek"].contains(&word) {
            continue;
        }
        chains += 1;
        let sides: Vec<(Hex, Hex)> = items
            .split_whitespace()
            .map(|p| {
                let (a, b) = p.split_once('/').expect("pair");
                (h(a), h(b))
            })
            .collect();
        for w in sides.windows(2) {
            let [(a, b), (c, d)] = [w[0], w[1]];
            let set: BTreeSet<Hex> = [a, b, c, d].into_iter().collect();
            let corner = set.len() == 3 && set.iter().all(|x| set.iter().all(|y| x == y || x.distance(*y) == 1));
            assert!(corner, "{a}/{b} then {c}/{d} do not meet in `{line}`");
        }
    }
    assert!(chains >= 10);
}

fn parse_error(text: &str) -> String {
    match format::parse(text, "data/hsn/map.txt") {
        Ok(_) => panic!("the broken file parsed"),
        Err(e @ FormatError::Invalid { .. }) => e.to_string(),
        Err(e) => panic!("unexpected {e}"),
    }
}

fn line_of(text: &str, prefix: &str) -> usize {
    text.lines().position(|l| l.starts_with(prefix)).expect("line present") + 1
}

#[test]
fn errors_in_the_real_file_name_file_line_and_hex() {
    let text = text();
    let n = line_of(&text, "17 ");
    let e = parse_error(&text.replacen("\n17 ", "\n17 .", 1));
    assert!(e.starts_with(&format!("data/hsn/map.txt:{n}: ")) && e.contains("column 17"), "{e}");

    let original = text.lines().nth(n - 1).expect("line");
    let broken = format!("17 x{}", &original[4..]);
    let e = parse_error(&text.replacen(original, &broken, 1));
    assert!(e.starts_with(&format!("data/hsn/map.txt:{n}: hex 1701: unknown terrain code 'x'")), "{e}");

    let e = parse_error(&text.replacen("[hexes]", "[hexes]\nvillage 1735 \"Nowhere\"", 1));
    let n = line_of(&text, "[hexes]") + 1;
    assert!(e.starts_with(&format!("data/hsn/map.txt:{n}: hex 1735: no such hex in column 17 (rows 01–34)")), "{e}");

    let e = parse_error(&text.replacen("[routes]", "[routes]\nroad: 1715 1717", 1));
    assert!(e.contains("1717") && e.contains("1715") && e.contains("neighbour"), "{e}");

    let e = parse_error(&text.replacen("[hexsides]", "[hexsides]\nford: 3012/3013", 1));
    let n = line_of(&text, "[hexsides]") + 1;
    assert!(e.starts_with(&format!("data/hsn/map.txt:{n}: ford on hexside 3012/3013")), "{e}");

    let e = parse_error(&text.replacen("[hexes]", "[towns]", 1));
    assert!(e.contains("unknown section `[towns]`"), "{e}");
}

#[test]
fn the_svg_draws_every_playable_hex_once() {
    let m = map();
    let svg = render::svg(&m);
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<polygon").count(), PLAYABLE);
    assert!(svg.contains("RECONSTRUCTED") && svg.contains("Hood Strikes North"));
    assert!(svg.contains("<title>4610 rough"));
    assert!(svg.contains("<title>5707 city — Nashville"));
    assert_eq!(svg, render::svg(&m));
}

/// Railroad hexes reachable from `start` in at most `steps` railroad hexsides, with the count.
fn by_rail(m: &Map, start: Hex, steps: u16) -> Vec<(Hex, u16)> {
    let mut seen = vec![(start, 0u16)];
    let mut queue = VecDeque::from([(start, 0u16)]);
    while let Some((hex, d)) = queue.pop_front() {
        if d == steps {
            continue;
        }
        for (_, n) in m.neighbors(hex) {
            if m.hexside(hex, n).contains(Hexside::RAILROAD) && seen.iter().all(|(s, _)| *s != n) {
                seen.push((n, d + 1));
                queue.push_back((n, d + 1));
            }
        }
    }
    seen
}

/// HSN Sc 1 "Moore": 43 railroad hexes take Moore from Nashville to Columbia, so the Nashville &
/// Decatur line must be that short; and every railroad station of the rules is on a railroad.
#[test]
fn the_railroads_fit_the_scenario_rules() {
    let m = map();
    let reach = by_rail(&m, h("5707"), 43);
    for want in ["4910", "4010", "3213", "1913", "1714", "1715", "5514", "5519", "5523", "5327", "5232"] {
        assert!(reach.iter().any(|(x, _)| *x == h(want)), "{want} should be within 43 railroad hexes of Nashville");
    }
    for (hex, features) in m.featured_hexes() {
        if features.contains(&HexFeature::Station) {
            assert!(
                m.neighbors(hex).any(|(_, n)| m.hexside(hex, n).contains(Hexside::RAILROAD)),
                "station {hex} is not on a railroad"
            );
        }
    }
}

/// The rules use the Duck River as a boundary (HSN-B 2.2 "south of the Duck"): it crosses the
/// whole map and splits it where the rulebook says. (The Harpeth rises inside the map, so "south
/// of the Harpeth" needs a ruling before it can be computed the same way.)
#[test]
fn the_duck_splits_the_map() {
    let m = map();
    let at = |v: &[bool], s: &str| m.index(h(s)).is_some_and(|i| v[i]);
    let south = m.side_of("Duck River", h("0111"));
    assert!(at(&south, "1715") && at(&south, "1615"), "Columbia and Thomas' Springs lie south of the Duck");
    assert!(!at(&south, "1714") && !at(&south, "2613"), "Fort Mizner and 2613 lie north of it");
    assert!(!at(&south, "5707"));
}
