//! A standalone SVG picture of a [`Map`], for checking map data by eye.
//!
//! The map is drawn with its highest column (`XX`) at the top and its highest row (`YY`) to the
//! right, so hexes are pointy-top: hexes of one column form a horizontal band and neighbouring
//! columns interlock. Every playable hex is one `<polygon class="hex">` whose `<title>` gives its
//! id, terrain and place name, and whose `data-hex`, `data-x` and `data-y` attributes give its id
//! and centre in SVG units (for front ends that place counters on the picture); nothing else in
//! the picture is a polygon. Output depends only on the map, so it is stable from run to run.

use std::fmt::Write as _;

use crate::hex::{Direction, Hex};
use crate::map::Map;
use crate::terrain::{HexFeature, Hexside, Terrain};

/// Hex radius (centre to corner) in pixels.
const R: f64 = 20.0;
const SQRT3: f64 = 1.732_050_807_568_877_2;
const MARGIN: f64 = 16.0;
const HEADER: f64 = 64.0;
const FOOTER: f64 = 40.0;

struct Layout {
    max_col: i16,
}

impl Layout {
    /// Pixel centre of a hex: axial `(q, r)` gives `x = w·(r + q/2)`, shifted so the map starts
    /// at the margin; columns stack upwards.
    fn centre(&self, hex: Hex) -> (f64, f64) {
        let (q, r) = hex.axial();
        let w = SQRT3 * R;
        let x = MARGIN + w * (f64::from(r) + f64::from(q) / 2.0) + w / 2.0;
        let y = HEADER + R + 1.5 * R * f64::from(self.max_col - q);
        (x, y)
    }

    /// Both ends of the hexside between adjacent hexes `a` and `b`.
    fn side(&self, a: Hex, b: Hex) -> ((f64, f64), (f64, f64)) {
        let (ax, ay) = self.centre(a);
        let (bx, by) = self.centre(b);
        let (mx, my) = ((ax + bx) / 2.0, (ay + by) / 2.0);
        let (dx, dy) = (bx - ax, by - ay);
        let len = (dx * dx + dy * dy).sqrt().max(1e-9);
        let (px, py) = (-dy / len * R / 2.0, dx / len * R / 2.0);
        ((mx + px, my + py), (mx - px, my - py))
    }
}

fn fill(t: Terrain) -> &'static str {
    match t {
        Terrain::Clear => "#f6eeb4",
        Terrain::Rolling => "#cfe6a6",
        Terrain::Rough => "#d9e3a2",
        Terrain::Woods => "#7fae6a",
        Terrain::City => "#c9c9c9",
        Terrain::Swamp => "#a9c4cf",
        Terrain::ProvisionalSwamp => "#c4e0b0",
        Terrain::Hill => "#f0b46c",
        Terrain::Mountain => "#b0885a",
        Terrain::Water => "#8fc3e8",
    }
}

fn pattern(t: Terrain) -> Option<&'static str> {
    match t {
        Terrain::Rough => Some("rough"),
        Terrain::Woods => Some("woods"),
        Terrain::City => Some("city"),
        Terrain::Swamp => Some("swamp"),
        Terrain::ProvisionalSwamp => Some("pswamp"),
        Terrain::Hill => Some("hill"),
        Terrain::Mountain => Some("mountain"),
        _ => None,
    }
}

fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

fn corners(cx: f64, cy: f64, radius: f64) -> String {
    let mut s = String::new();
    for k in 0..6 {
        let a = (30.0 + 60.0 * f64::from(k)).to_radians();
        let _ = write!(s, "{}{:.1},{:.1}", if k == 0 { "" } else { " " }, cx + radius * a.cos(), cy + radius * a.sin());
    }
    s
}

/// A closed path through `n` points around a centre (used for stars and pentagons, so that the
/// only `<polygon>` elements are hexes).
fn ring_path(cx: f64, cy: f64, radii: &[f64], n: usize) -> String {
    let mut s = String::new();
    let count = n * radii.len();
    for i in 0..count {
        let radius = radii.get(i % radii.len()).copied().unwrap_or(1.0);
        let a = (-90.0 + 360.0 * i as f64 / count as f64).to_radians();
        let _ =
            write!(s, "{}{:.1},{:.1} ", if i == 0 { "M" } else { "L" }, cx + radius * a.cos(), cy + radius * a.sin());
    }
    s.push('Z');
    s
}

const DEFS: &str = r##"<defs>
<pattern id="rough" width="12" height="10" patternUnits="userSpaceOnUse"><path d="M2,8 l2,-5 l2,5 M8,9 l1.5,-4 l1.5,4" fill="none" stroke="#5e8a3a" stroke-width="0.8"/></pattern>
<pattern id="woods" width="9" height="9" patternUnits="userSpaceOnUse"><circle cx="3" cy="3" r="2.4" fill="#3f7a3a"/><circle cx="7.5" cy="7.5" r="2" fill="#2f6a2e"/></pattern>
<pattern id="city" width="6" height="6" patternUnits="userSpaceOnUse"><path d="M0,0 h6 M0,0 v6" stroke="#7d7d7d" stroke-width="0.8"/></pattern>
<pattern id="swamp" width="10" height="6" patternUnits="userSpaceOnUse"><path d="M1,4 h4 M6,2 h3" stroke="#4c7d94" stroke-width="0.9"/></pattern>
<pattern id="pswamp" width="10" height="6" patternUnits="userSpaceOnUse"><path d="M1,4 h4 M6,2 h3 M3,4 v-2" stroke="#5f9a55" stroke-width="0.8"/></pattern>
<pattern id="hill" width="8" height="8" patternUnits="userSpaceOnUse"><circle cx="4" cy="4" r="0.9" fill="#b8742c"/></pattern>
<pattern id="mountain" width="12" height="10" patternUnits="userSpaceOnUse"><path d="M1,9 l5,-7 l5,7" fill="none" stroke="#6e4b25" stroke-width="1"/></pattern>
</defs>
"##;

/// Every pair of adjacent grid hexes, each once, in a fixed order.
fn grid_sides(map: &Map) -> Vec<(Hex, Hex, Hexside)> {
    let (c0, c1) = map.columns();
    let mut out = Vec::new();
    for col in c0..=c1 {
        for row in 1..=map.rows_in(col) {
            let a = Hex::new(col, row);
            for d in Direction::ALL.into_iter().take(3) {
                let b = a.neighbor(d);
                if !map.in_grid(b) || !(map.contains(a) || map.contains(b)) {
                    continue;
                }
                let f = map.hexside(a, b);
                if !f.is_empty() {
                    out.push((a, b, f));
                }
            }
        }
    }
    out
}

fn line(out: &mut String, (x1, y1): (f64, f64), (x2, y2): (f64, f64), style: &str) {
    let _ = writeln!(out, r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" {style}/>"#);
}

/// A standalone SVG of the whole map.
#[must_use]
pub fn svg(map: &Map) -> String {
    let (c0, c1) = map.columns();
    let lay = Layout { max_col: c1 };
    let max_rows = f64::from(map.rows_in(c0).max(map.rows_in(c0 + 1)).max(1));
    let width = 2.0 * MARGIN + SQRT3 * R * (max_rows + 0.5);
    let height = HEADER + FOOTER + 2.0 * R + 1.5 * R * f64::from((c1 - c0).max(0));
    let mut o = String::new();
    let _ = writeln!(
        o,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="sans-serif">"#
    );
    o.push_str(DEFS);
    let _ = writeln!(o, r##"<rect x="0" y="0" width="{width:.0}" height="{height:.0}" fill="#ffffff"/>"##);
    let _ = writeln!(
        o,
        r##"<text x="{MARGIN}" y="26" font-size="20" font-weight="bold">{} ({})</text>"##,
        esc(&map.name),
        esc(&map.id)
    );
    let _ = writeln!(
        o,
        r##"<text x="{MARGIN}" y="44" font-size="10" fill="#333">North (column {c1:02}) at the top, east (high rows) to the right.</text>"##
    );
    if map.reconstructed {
        let _ = writeln!(
            o,
            r##"<text x="{MARGIN}" y="58" font-size="11" font-weight="bold" fill="#b00000">RECONSTRUCTED — not a transcription of the printed map.</text>"##
        );
    }
    if !map.source.is_empty() {
        let _ = writeln!(
            o,
            r##"<text x="{MARGIN}" y="{:.0}" font-size="9" fill="#444">Source: {}</text>"##,
            height - FOOTER / 2.0,
            esc(&map.source)
        );
    }

    // Hexes.
    o.push_str("<g id=\"hexes\" stroke=\"#8a8a8a\" stroke-width=\"0.6\">\n");
    for hex in map.hexes() {
        let Some(t) = map.terrain(hex) else { continue };
        let (cx, cy) = lay.centre(hex);
        let mut title = format!("{hex} {}", t.name());
        if let Some(name) = map.place_name(hex) {
            let _ = write!(title, " — {name}");
        }
        if let Some(county) = map.county(hex) {
            let _ = write!(title, " ({county} County)");
        }
        let stroke = match t {
            Terrain::Rough | Terrain::Woods | Terrain::Swamp | Terrain::Mountain => r##" stroke="#4d6b34""##,
            _ => "",
        };
        let _ = writeln!(
            o,
            r#"<polygon class="hex" data-hex="{hex}" data-x="{cx:.1}" data-y="{cy:.1}" points="{}" fill="{}"{stroke}><title>{}</title></polygon>"#,
            corners(cx, cy, R),
            fill(t),
            esc(&title)
        );
    }
    o.push_str("</g>\n<g id=\"patterns\" stroke=\"none\" pointer-events=\"none\">\n");
    for hex in map.hexes() {
        let Some(p) = map.terrain(hex).and_then(pattern) else {
            continue;
        };
        let (cx, cy) = lay.centre(hex);
        let _ = writeln!(o, r#"<path d="M{}Z" fill="url(#{p})"/>"#, corners(cx, cy, R - 1.0).replace(' ', " L"));
    }
    o.push_str(
        "</g>\n<g id=\"ids\" font-size=\"5.5\" fill=\"#808080\" text-anchor=\"middle\" pointer-events=\"none\">\n",
    );
    for hex in map.hexes() {
        let (cx, cy) = lay.centre(hex);
        let _ = writeln!(o, r#"<text x="{cx:.1}" y="{:.1}">{hex}</text>"#, cy - R * 0.55);
    }
    o.push_str("</g>\n");

    let sides = grid_sides(map);
    // County borders, then water, then ridges.
    o.push_str("<g id=\"counties\" stroke=\"#8e3fa8\" stroke-width=\"1.4\" stroke-dasharray=\"1.5 2.5\" stroke-linecap=\"round\">\n");
    for &(a, b, f) in &sides {
        if f.contains(Hexside::COUNTY_BORDER) {
            let (p, q) = lay.side(a, b);
            line(&mut o, p, q, "");
        }
    }
    o.push_str("</g>\n<g id=\"water\" stroke-linecap=\"round\">\n");
    for &(a, b, f) in &sides {
        let style = if f.contains(Hexside::MAJOR_RIVER) {
            r##"stroke="#1f5fbf" stroke-width="7""##
        } else if f.contains(Hexside::MINOR_RIVER) {
            r##"stroke="#2f74d0" stroke-width="4.5""##
        } else if f.contains(Hexside::ALL_WATER) {
            r##"stroke="#6fa8e0" stroke-width="6""##
        } else if f.contains(Hexside::CREEK) {
            r##"stroke="#3d8ae0" stroke-width="1.8""##
        } else {
            continue;
        };
        let (p, q) = lay.side(a, b);
        line(&mut o, p, q, style);
    }
    o.push_str("</g>\n<g id=\"ridges\" stroke=\"#7a4a1c\" stroke-linecap=\"round\">\n");
    for &(a, b, f) in &sides {
        if !f.intersects(Hexside::RIDGE) {
            continue;
        }
        let (upper, lower) = if f.contains(Hexside::RIDGE_UP_FIRST) { (a, b) } else { (b, a) };
        let (p, q) = lay.side(upper, lower);
        line(&mut o, p, q, r#"stroke-width="2.6""#);
        // Three short ticks pointing downhill.
        let (lx, ly) = lay.centre(lower);
        let (ux, uy) = lay.centre(upper);
        let len = ((lx - ux).powi(2) + (ly - uy).powi(2)).sqrt().max(1e-9);
        let (tx, ty) = ((lx - ux) / len * 3.5, (ly - uy) / len * 3.5);
        for k in 1..=3 {
            let s = f64::from(k) / 4.0;
            let (sx, sy) = (p.0 + (q.0 - p.0) * s, p.1 + (q.1 - p.1) * s);
            line(&mut o, (sx, sy), (sx + tx, sy + ty), r#"stroke-width="1.2""#);
        }
    }
    o.push_str("</g>\n");

    // Routes between hex centres: trails, roads, pikes, then railroads on top.
    o.push_str("<g id=\"routes\" stroke-linecap=\"round\" pointer-events=\"none\">\n");
    let styles: [(Hexside, &str); 5] = [
        (Hexside::TRAIL, r##"stroke="#8b6a3e" stroke-width="1.6" stroke-dasharray="4 3""##),
        (Hexside::UNFINISHED_RAILROAD, r##"stroke="#555" stroke-width="1.4" stroke-dasharray="6 3""##),
        (Hexside::ROAD, r##"stroke="#9a5b22" stroke-width="2""##),
        (Hexside::PIKE, r##"stroke="#8b1010" stroke-width="3.6""##),
        (Hexside::RAILROAD, r##"stroke="#111" stroke-width="1.6""##),
    ];
    for (feature, style) in styles {
        for &(a, b, f) in &sides {
            if f.contains(feature) {
                let (p, q) = (lay.centre(a), lay.centre(b));
                line(&mut o, p, q, style);
                if feature == Hexside::RAILROAD {
                    line(
                        &mut o,
                        p,
                        q,
                        r##"stroke="#111" stroke-width="6" stroke-dasharray="1.2 4.5" stroke-linecap="butt""##,
                    );
                }
            }
        }
    }
    o.push_str("</g>\n");

    // River crossings, marked on the hexside midpoint.
    o.push_str("<g id=\"crossings\" pointer-events=\"none\">\n");
    for &(a, b, f) in &sides {
        if !f.intersects(Hexside::CROSSING) {
            continue;
        }
        let (p, q) = lay.side(a, b);
        let (mx, my) = ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0);
        let (ca, cb) = (lay.centre(a), lay.centre(b));
        // Unit vector across the hexside (from a to b).
        let len = ((cb.0 - ca.0).powi(2) + (cb.1 - ca.1).powi(2)).sqrt().max(1e-9);
        let (ux, uy) = ((cb.0 - ca.0) / len, (cb.1 - ca.1) / len);
        if f.contains(Hexside::BRIDGE) {
            // Two rails across the river.
            for s in [-2.5, 2.5] {
                let (ox, oy) = (-uy * s, ux * s);
                line(
                    &mut o,
                    (mx - ux * 6.0 + ox, my - uy * 6.0 + oy),
                    (mx + ux * 6.0 + ox, my + uy * 6.0 + oy),
                    r##"stroke="#000" stroke-width="1.5""##,
                );
            }
        }
        if f.contains(Hexside::FORD) {
            let _ = writeln!(
                o,
                r##"<circle cx="{mx:.1}" cy="{my:.1}" r="3.2" fill="#e8d39a" stroke="#5a4214" stroke-width="1"/>"##
            );
        }
        for (bit, letter) in [(Hexside::DAM, "D"), (Hexside::FERRY, "F")] {
            if f.contains(bit) {
                let _ = writeln!(
                    o,
                    r##"<text x="{mx:.1}" y="{:.1}" font-size="7" font-weight="bold" text-anchor="middle" fill="#000">{letter}</text>"##,
                    my + 2.5
                );
            }
        }
    }
    o.push_str("</g>\n");

    // In-hex features and names.
    o.push_str("<g id=\"features\" pointer-events=\"none\">\n");
    for (hex, features) in map.featured_hexes() {
        let (cx, cy) = lay.centre(hex);
        let (cx, cy) = (cx, cy + 2.0);
        for f in features {
            let _ = match f {
                HexFeature::Village => writeln!(o, r##"<circle cx="{cx:.1}" cy="{cy:.1}" r="3" fill="#222"/>"##),
                HexFeature::Station => writeln!(
                    o,
                    r##"<rect x="{:.1}" y="{:.1}" width="7" height="7" fill="#fff" stroke="#000" stroke-width="1.3"/>"##,
                    cx + 3.0,
                    cy - 3.5
                ),
                HexFeature::Redoubt => writeln!(
                    o,
                    r##"<path d="{}" fill="#1c3f9e" stroke="#fff" stroke-width="0.5"/>"##,
                    ring_path(cx - 6.0, cy, &[5.5, 2.3], 5)
                ),
                HexFeature::FortA => writeln!(
                    o,
                    r##"<path d="{}" fill="#1c3f9e" stroke="#000" stroke-width="0.8"/>"##,
                    ring_path(cx - 6.0, cy, &[6.0], 5)
                ),
                HexFeature::FortB => writeln!(
                    o,
                    r##"<path d="{}" fill="#fff" stroke="#1c3f9e" stroke-width="1.6"/>"##,
                    ring_path(cx - 6.0, cy, &[5.5], 5)
                ),
                HexFeature::Landing => writeln!(
                    o,
                    r##"<text x="{cx:.1}" y="{:.1}" font-size="8" font-weight="bold" text-anchor="middle" fill="#1c3f9e">L</text>"##,
                    cy + 3.0
                ),
            };
        }
    }
    let mut named: Vec<Hex> = Vec::new();
    for place in map.places() {
        if named.contains(&place.hex) {
            continue;
        }
        named.push(place.hex);
        let (cx, cy) = lay.centre(place.hex);
        let _ = writeln!(
            o,
            r##"<text x="{cx:.1}" y="{:.1}" font-size="6.5" text-anchor="middle" fill="#000" stroke="#fff" stroke-width="1.8" paint-order="stroke">{}</text>"##,
            cy + R * 0.72,
            esc(&place.name)
        );
    }
    o.push_str("</g>\n</svg>\n");
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_map_renders_one_polygon_per_hex() {
        let mut m = Map::new("t", "T & <co>", (1, 3), 3, 2);
        for c in 1..=3 {
            for r in 1..=m.rows_in(c) {
                m.set_terrain(Hex::new(c, r), Terrain::Woods).expect("grid");
            }
        }
        m.add_hexside(Hex::new(1, 1), Hex::new(2, 1), Hexside::MINOR_RIVER | Hexside::BRIDGE | Hexside::PIKE)
            .expect("adjacent");
        m.set_ridge(Hex::new(1, 2), Hex::new(1, 3)).expect("adjacent");
        m.add_feature(Hex::new(2, 2), HexFeature::FortA).expect("grid");
        m.add_place(Hex::new(2, 2), "Fort \"X\"").expect("grid");
        m.reconstructed = true;
        let s = svg(&m);
        assert_eq!(s.matches("<polygon").count(), 8);
        assert!(s.contains("T &amp; &lt;co&gt;") && s.contains("RECONSTRUCTED"));
        assert!(s.contains("Fort &quot;X&quot;"));
        // Every hex polygon names its hex and centre.
        assert_eq!(s.matches("<polygon class=\"hex\" data-hex=\"").count(), 8);
        let (cx, cy) = Layout { max_col: 3 }.centre(Hex::new(2, 2));
        assert!(s.contains(&format!(r#"data-hex="0202" data-x="{cx:.1}" data-y="{cy:.1}""#)), "centre of 0202");
        assert_eq!(s, svg(&m), "deterministic");
    }

    #[test]
    fn north_is_up_and_east_is_right() {
        let lay = Layout { max_col: 58 };
        let (x1, y1) = lay.centre(Hex::new(57, 7));
        let (x2, y2) = lay.centre(Hex::new(1, 7));
        assert!(y1 < y2 && (x1 - x2).abs() < 1e-9);
        let (x3, _) = lay.centre(Hex::new(57, 8));
        assert!(x3 > x1);
        // Neighbours are one hex width apart.
        for (_, n) in Hex::new(46, 10).neighbors() {
            let (ax, ay) = lay.centre(Hex::new(46, 10));
            let (bx, by) = lay.centre(n);
            let d = ((ax - bx).powi(2) + (ay - by).powi(2)).sqrt();
            assert!((d - SQRT3 * R).abs() < 1e-6, "{n}: {d}");
        }
    }
}
