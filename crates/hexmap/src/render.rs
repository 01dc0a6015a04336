//! A standalone SVG picture of a [`Map`], for checking map data by eye.
//!
//! A [`Orientation::ColumnsNorth`] map (HSN) is drawn with its highest column (`XX`) at the top
//! and its highest row (`YY`) to the right, so hexes are pointy-top: hexes of one column form a
//! horizontal band and neighbouring columns interlock. A [`Orientation::ColumnsEast`] map
//! (Perryville) has vertical columns increasing to the right and rows increasing downwards, with
//! flat-topped hexes. A tactical map ([`TerrainKey::Tactical`]) is shaded by elevation like the
//! printed Blind Swords maps (EX 2.10a: darker is lower, one contour line per level changed), with
//! its terrain, fences, slopes, river and roads drawn over the shading. Every playable hex is one `<polygon class="hex">` whose `<title>` gives its
//! id, terrain and place name, and whose `data-hex`, `data-x` and `data-y` attributes give its id
//! and centre in SVG units (for front ends that place counters on the picture); nothing else in
//! the picture is a polygon. Output depends only on the map, so it is stable from run to run.

use std::fmt::Write as _;

use crate::hex::{Direction, Hex};
use crate::map::{Grid, Map, Orientation};
use crate::terrain::{HexFeature, Hexside, TacticalTerrain, Terrain, TerrainKey};

/// Hex radius (centre to corner) in pixels.
const R: f64 = 20.0;
const SQRT3: f64 = 1.732_050_807_568_877_2;
const MARGIN: f64 = 16.0;
const HEADER: f64 = 64.0;
const FOOTER: f64 = 40.0;
/// Extra footer room for the key of a tactical map.
const KEY: f64 = 18.0;

struct Layout {
    grid: Grid,
}

impl Layout {
    /// Pixel centre of a hex. Columns north: axial `(q, r)` gives `x = w·(r + q/2)`, shifted so
    /// the map starts at the margin, and columns stack upwards. Columns east: columns step 1.5 R
    /// to the right, rows one hex width down, shifted columns half a hex further down.
    fn centre(&self, hex: Hex) -> (f64, f64) {
        let w = SQRT3 * R;
        match self.grid.orientation {
            Orientation::ColumnsNorth => {
                let (q, r) = self.grid.parity.axial(hex);
                let x = MARGIN + w * (f64::from(r) + f64::from(q) / 2.0) + w / 2.0;
                let y = HEADER + R + 1.5 * R * f64::from(self.grid.cols.1 - q);
                (x, y)
            }
            Orientation::ColumnsEast => {
                let x = MARGIN + R + 1.5 * R * f64::from(hex.col - self.grid.cols.0);
                let shift = if self.grid.parity.shifted(hex.col) { 0.5 } else { 0.0 };
                let y = HEADER + w / 2.0 + w * (f64::from(hex.row - self.grid.first_row) + shift);
                (x, y)
            }
        }
    }

    /// The picture's width and height.
    fn size(&self, map: &Map) -> (f64, f64) {
        let (c0, c1) = self.grid.cols;
        let w = SQRT3 * R;
        match self.grid.orientation {
            Orientation::ColumnsNorth => {
                let max_rows = f64::from(map.rows_in(c0).max(map.rows_in(c0 + 1)).max(1));
                (2.0 * MARGIN + w * (max_rows + 0.5), HEADER + FOOTER + 2.0 * R + 1.5 * R * f64::from((c1 - c0).max(0)))
            }
            Orientation::ColumnsEast => {
                let rows = f64::from(map.rows_in(c0).max(map.rows_in(c0 + 1)) - self.grid.first_row + 1).max(1.0);
                let key = if self.grid.key == TerrainKey::Tactical { KEY } else { 0.0 };
                (
                    2.0 * MARGIN + 2.0 * R + 1.5 * R * f64::from((c1 - c0).max(0)),
                    HEADER + FOOTER + key + w * (rows + 0.5),
                )
            }
        }
    }

    /// The corners of a hex of this layout, as SVG points.
    fn corners(&self, cx: f64, cy: f64, radius: f64) -> String {
        let start = match self.grid.orientation {
            Orientation::ColumnsNorth => 30.0,
            Orientation::ColumnsEast => 0.0,
        };
        corners(cx, cy, radius, start)
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

fn corners(cx: f64, cy: f64, radius: f64, start: f64) -> String {
    let mut s = String::new();
    for k in 0..6 {
        let a = (start + 60.0 * f64::from(k)).to_radians();
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
        for row in map.first_row()..=map.rows_in(col) {
            let a = Hex::new(col, row);
            for d in Direction::ALL.into_iter().take(3) {
                let b = map.neighbor(a, d);
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
    let (_, c1) = map.columns();
    let lay = Layout { grid: map.grid() };
    let (width, height) = lay.size(map);
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
    let orientation = match map.grid().orientation {
        Orientation::ColumnsNorth => format!("North (column {c1:02}) at the top, east (high rows) to the right."),
        Orientation::ColumnsEast => "North at the top: columns increase eastwards, rows southwards.".to_string(),
    };
    let _ = writeln!(o, r##"<text x="{MARGIN}" y="44" font-size="10" fill="#333">{orientation}</text>"##);
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

    if map.grid().key == TerrainKey::Tactical {
        tactical(&mut o, map, &lay);
        o.push_str("</svg>\n");
        return o;
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
            lay.corners(cx, cy, R),
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
        let _ = writeln!(o, r#"<path d="M{}Z" fill="url(#{p})"/>"#, lay.corners(cx, cy, R - 1.0).replace(' ', " L"));
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

    crossings(&mut o, &sides, &lay);

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
    names(&mut o, map, &lay);
    o.push_str("</g>\n</svg>\n");
    o
}

/// River crossings, marked on the hexside midpoint.
fn crossings(o: &mut String, sides: &[(Hex, Hex, Hexside)], lay: &Layout) {
    o.push_str("<g id=\"crossings\" pointer-events=\"none\">\n");
    for &(a, b, f) in sides {
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
                    o,
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
}

/// Place names under their hexes, with a white halo.
fn names(o: &mut String, map: &Map, lay: &Layout) {
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
}

/// Elevation shades, level 1 (darkest brown) to 6 (tan-ish white), as the printed map (EX 2.10a);
/// levels above 6 keep the lightest shade.
const LEVEL_FILL: [&str; 6] = ["#9c7048", "#b48a5e", "#c9a478", "#dbbe95", "#ead6b4", "#f7eedb"];

const TACTICAL_DEFS: &str = r##"<defs>
<pattern id="t-woods" width="10" height="10" patternUnits="userSpaceOnUse"><circle cx="3" cy="3" r="2.6" fill="#2f7a34" fill-opacity="0.85"/><circle cx="8" cy="7.5" r="2.3" fill="#236628" fill-opacity="0.85"/></pattern>
<pattern id="t-corn" width="5" height="5" patternUnits="userSpaceOnUse"><path d="M0,2.5 h5" stroke="#c8a800" stroke-width="1.6"/></pattern>
<pattern id="t-orchard" width="7" height="7" patternUnits="userSpaceOnUse"><circle cx="3.5" cy="3.5" r="1.6" fill="#4f8f2f"/></pattern>
<pattern id="t-town" width="7" height="7" patternUnits="userSpaceOnUse"><rect x="1" y="1" width="3.5" height="3" fill="#444"/></pattern>
</defs>
"##;

fn tactical_pattern(t: TacticalTerrain) -> Option<(&'static str, &'static str)> {
    match t {
        TacticalTerrain::Woods => Some(("t-woods", "#5f9a55")),
        TacticalTerrain::Cornfield => Some(("t-corn", "#f2e27a")),
        TacticalTerrain::Orchard => Some(("t-orchard", "#c9e0a0")),
        TacticalTerrain::Town => Some(("t-town", "#b9b3a8")),
        _ => None,
    }
}

/// The body of a tactical map: elevation shading, contour lines, terrain, slopes, fences, the
/// river, roads and trails, crossings, buildings and names.
fn tactical(o: &mut String, map: &Map, lay: &Layout) {
    o.push_str(TACTICAL_DEFS);
    o.push_str("<g id=\"hexes\" stroke=\"#7d6a55\" stroke-width=\"0.4\">\n");
    for hex in map.hexes() {
        let Some(t) = map.tactical(hex) else { continue };
        let level = map.elevation(hex).unwrap_or(1);
        let (cx, cy) = lay.centre(hex);
        let mut title = format!("{hex} {}, level {level}", t.name());
        if let Some(name) = map.place_name(hex) {
            let _ = write!(title, " — {name}");
        }
        let shade = LEVEL_FILL.get(usize::from(level.clamp(1, 6)) - 1).copied().unwrap_or("#ffffff");
        let _ = writeln!(
            o,
            r#"<polygon class="hex" data-hex="{hex}" data-x="{cx:.1}" data-y="{cy:.1}" points="{}" fill="{shade}"><title>{}</title></polygon>"#,
            lay.corners(cx, cy, R),
            esc(&title)
        );
    }
    o.push_str("</g>\n<g id=\"terrain\" stroke=\"none\" pointer-events=\"none\">\n");
    for hex in map.hexes() {
        let Some(t) = map.tactical(hex) else { continue };
        let (cx, cy) = lay.centre(hex);
        if let Some((pattern, tint)) = tactical_pattern(t) {
            let outline = lay.corners(cx, cy, R - 0.6).replace(' ', " L");
            let _ = writeln!(o, r#"<path d="M{outline}Z" fill="{tint}" fill-opacity="0.55"/>"#);
            let _ = writeln!(o, r#"<path d="M{outline}Z" fill="url(#{pattern})"/>"#);
        }
        if t == TacticalTerrain::Building {
            let _ =
                writeln!(o, r##"<rect x="{:.1}" y="{:.1}" width="5" height="4" fill="#222"/>"##, cx - 2.5, cy - 1.0);
        }
    }
    o.push_str("</g>\n");

    // Dry streams: a thin blue line through neighbouring stream hexes (EX 2.10i).
    o.push_str("<g id=\"streams\" stroke=\"#3f7fc4\" stroke-width=\"1.3\" fill=\"none\" pointer-events=\"none\">\n");
    for hex in map.hexes() {
        if map.tactical(hex) != Some(TacticalTerrain::DryStream) {
            continue;
        }
        let c = lay.centre(hex);
        let mut joined = false;
        for (_, n) in map.neighbors(hex) {
            if map.tactical(n) == Some(TacticalTerrain::DryStream) {
                joined = true;
                if hex < n {
                    let m = lay.centre(n);
                    let _ = writeln!(
                        o,
                        r#"<path d="M{:.1},{:.1} Q{:.1},{:.1} {:.1},{:.1}"/>"#,
                        c.0,
                        c.1,
                        (c.0 + m.0) / 2.0 + (m.1 - c.1) * 0.12,
                        (c.1 + m.1) / 2.0 - (m.0 - c.0) * 0.12,
                        m.0,
                        m.1
                    );
                }
            }
        }
        if !joined {
            let _ = writeln!(o, r#"<path d="M{:.1},{:.1} q3,-3 6,0 t6,0"/>"#, c.0 - 6.0, c.1);
        }
    }
    o.push_str("</g>\n");

    // Contour lines: one black line per level changed across a hexside (EX 2.10a).
    let sides: Vec<(Hex, Hex, Hexside)> = grid_pairs(map);
    o.push_str("<g id=\"contours\" stroke=\"#1a1208\" stroke-width=\"0.7\" pointer-events=\"none\">\n");
    for &(a, b, _) in &sides {
        let (Some(ea), Some(eb)) = (map.elevation(a), map.elevation(b)) else { continue };
        let k = ea.abs_diff(eb);
        if k == 0 {
            continue;
        }
        let (p, q) = lay.side(a, b);
        let (ca, cb) = (lay.centre(a), lay.centre(b));
        let len = ((cb.0 - ca.0).powi(2) + (cb.1 - ca.1).powi(2)).sqrt().max(1e-9);
        let (ux, uy) = ((cb.0 - ca.0) / len, (cb.1 - ca.1) / len);
        for i in 0..k {
            let off = (f64::from(i) - f64::from(k - 1) / 2.0) * 1.6;
            line(o, (p.0 + ux * off, p.1 + uy * off), (q.0 + ux * off, q.1 + uy * off), "");
        }
    }
    o.push_str("</g>\n");

    // Slopes: hachures from the hexside into the lower hex; steep slopes denser and longer.
    o.push_str("<g id=\"slopes\" stroke=\"#3b2410\" stroke-linecap=\"round\" pointer-events=\"none\">\n");
    for &(a, b, f) in &sides {
        if !f.intersects(Hexside::ANY_SLOPE) {
            continue;
        }
        let (upper, lower) = if map.elevation(a) >= map.elevation(b) { (a, b) } else { (b, a) };
        let (p, q) = lay.side(upper, lower);
        let (uc, lc) = (lay.centre(upper), lay.centre(lower));
        let len = ((lc.0 - uc.0).powi(2) + (lc.1 - uc.1).powi(2)).sqrt().max(1e-9);
        let steep = f.contains(Hexside::STEEP_SLOPE);
        let (n, tick, width) = if steep { (7, 6.0, 1.4) } else { (4, 4.0, 1.0) };
        let (tx, ty) = ((lc.0 - uc.0) / len * tick, (lc.1 - uc.1) / len * tick);
        for k in 1..=n {
            let s = f64::from(k) / f64::from(n + 1);
            let (sx, sy) = (p.0 + (q.0 - p.0) * s, p.1 + (q.1 - p.1) * s);
            line(o, (sx, sy), (sx + tx, sy + ty), &format!(r#"stroke-width="{width}""#));
        }
    }
    o.push_str("</g>\n");

    // The river, then fences, along hexsides.
    o.push_str("<g id=\"water\" stroke-linecap=\"round\" pointer-events=\"none\">\n");
    for &(a, b, f) in &sides {
        if f.contains(Hexside::TACTICAL_RIVER) {
            line(o, lay.side(a, b).0, lay.side(a, b).1, r##"stroke="#2f6fc4" stroke-width="5""##);
        }
    }
    o.push_str("</g>\n<g id=\"fences\" pointer-events=\"none\">\n");
    for &(a, b, f) in &sides {
        let (p, q) = lay.side(a, b);
        if f.contains(Hexside::STONE_FENCE) {
            line(o, p, q, r##"stroke="#4a4a4a" stroke-width="2.6" stroke-dasharray="1.6 1.2""##);
        }
        if f.contains(Hexside::WOOD_FENCE) {
            line(o, p, q, r##"stroke="#8a4b16" stroke-width="1.8" stroke-dasharray="3.5 1.5""##);
        }
    }
    o.push_str("</g>\n");

    // Trails, then roads, between hex centres.
    o.push_str("<g id=\"routes\" stroke-linecap=\"round\" pointer-events=\"none\">\n");
    for &(a, b, f) in &sides {
        if f.contains(Hexside::TRAIL) && !f.contains(Hexside::ROAD) {
            line(o, lay.centre(a), lay.centre(b), r##"stroke="#5b3a1a" stroke-width="1.4" stroke-dasharray="3 2.5""##);
        }
    }
    for &(a, b, f) in &sides {
        if f.contains(Hexside::ROAD) {
            line(o, lay.centre(a), lay.centre(b), r##"stroke="#3a2410" stroke-width="4""##);
            line(o, lay.centre(a), lay.centre(b), r##"stroke="#e9c46a" stroke-width="2.2""##);
        }
    }
    o.push_str("</g>\n");
    crossings(o, &sides, lay);
    legend(o, lay.size(map).1);

    // Hex ids and levels.
    o.push_str("<g id=\"ids\" font-size=\"5\" fill=\"#4a3a28\" text-anchor=\"middle\" pointer-events=\"none\">\n");
    for hex in map.hexes() {
        let (cx, cy) = lay.centre(hex);
        let level = map.elevation(hex).map_or(String::new(), |l| format!(" ({l})"));
        let _ = writeln!(o, r#"<text x="{cx:.1}" y="{:.1}">{hex}{level}</text>"#, cy - R * 0.55);
    }
    o.push_str("</g>\n<g id=\"features\" pointer-events=\"none\">\n");
    names(o, map, lay);
    o.push_str("</g>\n");
}

/// The key of a tactical map, in the footer above the source line.
fn legend(o: &mut String, height: f64) {
    let y = height - FOOTER / 2.0 - 24.0;
    let mut x = MARGIN;
    for (i, fill) in LEVEL_FILL.iter().enumerate() {
        let _ = writeln!(
            o,
            r##"<rect x="{x:.1}" y="{:.1}" width="12" height="9" fill="{fill}" stroke="#7d6a55" stroke-width="0.4"/>"##,
            y - 8.0
        );
        let _ = writeln!(
            o,
            r##"<text x="{:.1}" y="{:.1}" font-size="7" text-anchor="middle" fill="#222">{}</text>"##,
            x + 6.0,
            y - 1.5,
            i + 1
        );
        x += 13.0;
    }
    let lines = [
        "levels 1 (low) to 6 (high), one contour line per level · hachures: slope, dense: steep slope · \
         grey dots: stone fence · brown dashes: wood fence",
        "blue: Chaplin River, thin blue: dry stream · yellow: road, dashed: trail · circle: ford, rails: bridge · \
         green: woods, yellow stripes: corn field, grey: Perryville, square: building",
    ];
    for (i, text) in lines.iter().enumerate() {
        let _ = writeln!(
            o,
            r##"<text x="{:.1}" y="{:.1}" font-size="8" fill="#222">{text}</text>"##,
            x + 4.0,
            y - 1.5 + 10.0 * i as f64
        );
    }
}

/// Every pair of adjacent grid hexes with both hexes playable, each once, with the features of
/// their hexside (even when it has none: contour lines need every pair).
fn grid_pairs(map: &Map) -> Vec<(Hex, Hex, Hexside)> {
    let mut out = Vec::new();
    for a in map.hexes() {
        for d in Direction::ALL.into_iter().take(3) {
            let b = map.neighbor(a, d);
            if map.contains(b) {
                out.push((a, b, map.hexside(a, b)));
            }
        }
    }
    out
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
        let (cx, cy) = Layout { grid: crate::map::Grid::gcacw((1, 3), 3, 2) }.centre(Hex::new(2, 2));
        assert!(s.contains(&format!(r#"data-hex="0202" data-x="{cx:.1}" data-y="{cy:.1}""#)), "centre of 0202");
        assert_eq!(s, svg(&m), "deterministic");
    }

    /// A columns-east tactical map: flat-topped hexes with shifted columns lower, shading by
    /// level, one contour line per level changed, hachures on slopes.
    #[test]
    fn tactical_maps_shade_levels_and_draw_contours() {
        let text = "map p \"P\"\ngrid 10-11 00-01 00-01 odd-q columns-east tactical\n[terrain]\n10 .w\n11 T.\n\
                    [elevation]\n10 14\n11 11\n[hexsides]\nsteep-slope: 1001/1100\n";
        let m = crate::format::parse(text, "p.txt").expect("parses");
        let s = svg(&m);
        assert_eq!(s.matches("<polygon class=\"hex\"").count(), 4);
        assert!(
            s.contains(&format!(r#"fill="{}""#, LEVEL_FILL[0])) && s.contains(&format!(r#"fill="{}""#, LEVEL_FILL[3]))
        );
        // 1001 (level 4) borders 1000, 1100 and 1101 (level 1): three lines each.
        let contours = s.split("<g id=\"contours\"").nth(1).and_then(|x| x.split("</g>").next()).unwrap_or("");
        assert_eq!(contours.matches("<line").count(), 9);
        let slopes = s.split("<g id=\"slopes\"").nth(1).and_then(|x| x.split("</g>").next()).unwrap_or("");
        assert_eq!(slopes.matches("<line").count(), 7, "seven hachures on the steep slope");
        assert!(s.contains("level 4") && s.contains("url(#t-woods)") && s.contains("url(#t-town)"));
        let lay = Layout { grid: m.grid() };
        let (x0, y0) = lay.centre(Hex::new(10, 0));
        let (x1, y1) = lay.centre(Hex::new(11, 0));
        assert!(x1 > x0 && y1 > y0, "column 11 sits half a hex lower");
        assert!((((x1 - x0).powi(2) + (y1 - y0).powi(2)).sqrt() - SQRT3 * R).abs() < 1e-6);
    }

    #[test]
    fn north_is_up_and_east_is_right() {
        let lay = Layout { grid: crate::map::Grid::gcacw((1, 58), 34, 33) };
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
