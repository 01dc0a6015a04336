//! The map file format: a small line-oriented text format that a person can read and edit.
//!
//! ```text
//! map hsn "Hood Strikes North"
//! grid 01-58 34 33          # columns, rows in odd columns, rows in even columns (from 01)
//! # or: grid 10-40 00-40 00-40 odd-q columns-east tactical
//! #     rows as first-last; then optional words: the parity (even-q, the default, or odd-q),
//! #     the orientation (columns-north, the default, or columns-east) and the terrain key
//! #     (gcacw, the default, or tactical)
//! source "where the data comes from"
//! reconstructed "why"       # optional: sets Map::reconstructed and is appended to Map::source
//!
//! [terrain]                 # one line per column: `XX <one terrain code per row>`, `-` = not playable
//! 01 ..oo....
//! [elevation]               # tactical maps: one digit per hex, same layout (`-` = none)
//! 01 11223344
//! [counties]
//! legend M Maury            # letter -> county name
//! 01 MMMM--LL               # one letter per row, `-` = none
//! [routes]                  # a path of adjacent hexes; the feature goes on every hexside crossed
//! pike "Columbia Pike": 1715 1815 1914       # tactical maps: road, trail
//! [hexsides]                # features along hexsides, as pairs of adjacent hexes a/b
//! minor-river "Duck River": 1714/1715 1715/1815
//! ridge: 2030>2031          # upper>lower
//! stone-fence: 2216/2316    # tactical maps: stone-fence wood-fence slope steep-slope river ford bridge
//! [hexes]                   # in-hex features and names
//! place 0511 "Poplar Grove"
//! village 2914 "Spring Hill"
//! ```
//!
//! GCACW terrain codes are [`Terrain::code`], tactical ones [`TacticalTerrain::code`]; a hexside
//! word of the other key is refused, a slope must join hexes of different elevation, and on a
//! tactical map every playable hex needs an elevation. `#` starts a comment (outside quotes);
//! blank lines are ignored. After the file is read, county
//! borders are derived: every hexside between two playable hexes of different counties gets
//! [`Hexside::COUNTY_BORDER`]. The parser never panics: every problem comes back as a
//! [`FormatError`] naming the file, the line and what is wrong.

use std::collections::BTreeMap;
use std::path::Path;

use crate::hex::{Hex, Parity};
use crate::map::{Grid, Map, Orientation};
use crate::terrain::{HexFeature, Hexside, TacticalTerrain, Terrain, TerrainKey};

/// Why a map file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum FormatError {
    /// The file could not be read.
    #[error("{file}: cannot read the map file: {source}")]
    Io {
        /// The file.
        file: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// Something in the file is wrong.
    #[error("{file}:{line}: {message}")]
    Invalid {
        /// The file.
        file: String,
        /// 1-based line number (the last line + 1 for problems found at the end of the file).
        line: usize,
        /// What is wrong, naming the hex, word or field.
        message: String,
    },
}

impl FormatError {
    /// The 1-based line of a content error (`None` for I/O errors).
    #[must_use]
    pub fn line(&self) -> Option<usize> {
        match self {
            FormatError::Io { .. } => None,
            FormatError::Invalid { line, .. } => Some(*line),
        }
    }
}

/// Reads and parses a map file.
///
/// # Errors
/// The file cannot be read, or its content is invalid (see [`parse`]).
pub fn load(path: &Path) -> Result<Map, FormatError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| FormatError::Io { file: file.clone(), source })?;
    parse(&text, &file)
}

/// Parses the text of a map file; `file` is the name used in error messages.
///
/// # Errors
/// Any line that does not follow the format, any hex outside the grid, any route step or hexside
/// pair between hexes that are not adjacent, and any ford, bridge, dam or ferry on a hexside
/// without a river.
pub fn parse(text: &str, file: &str) -> Result<Map, FormatError> {
    let mut p = Parser::new(file);
    let mut last = 0;
    for (i, raw) in text.lines().enumerate() {
        last = i + 1;
        p.line = i + 1;
        let content = strip_comment(raw);
        let content = content.trim();
        if content.is_empty() {
            continue;
        }
        p.line_content(content)?;
    }
    p.line = last + 1;
    p.finish()
}

/// The parts of a file section that are kept until the end for cross-checks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Section {
    Header,
    Terrain,
    Elevation,
    Counties,
    Routes,
    Hexsides,
    Hexes,
}

impl Section {
    fn from_name(name: &str) -> Option<Section> {
        match name {
            "terrain" => Some(Section::Terrain),
            "elevation" => Some(Section::Elevation),
            "counties" => Some(Section::Counties),
            "routes" => Some(Section::Routes),
            "hexsides" => Some(Section::Hexsides),
            "hexes" => Some(Section::Hexes),
            _ => None,
        }
    }
}

struct Parser<'a> {
    file: &'a str,
    line: usize,
    section: Section,
    id: Option<(String, String)>,
    map: Option<Map>,
    source: Option<String>,
    reconstructed: Option<String>,
    terrain_cols: BTreeMap<i16, usize>,
    terrain_section_line: Option<usize>,
    elevation_cols: BTreeMap<i16, usize>,
    elevation_section_line: Option<usize>,
    county_cols: BTreeMap<i16, usize>,
    legend: BTreeMap<char, String>,
    /// Hexes that must be playable once the terrain is known, with the line that uses them.
    need_playable: Vec<(usize, Hex, &'static str)>,
    /// Crossings (ford, bridge, ...) that need a river, with their line.
    crossings: Vec<(usize, Hex, Hex, &'static str)>,
    /// Slopes, which need hexes of different elevation, with their line.
    slopes: Vec<(usize, Hex, Hex, &'static str)>,
    /// County letters per hex, applied at the end.
    counties: Vec<(Hex, char)>,
}

fn err_at(file: &str, line: usize, message: impl Into<String>) -> FormatError {
    FormatError::Invalid { file: file.to_string(), line, message: message.into() }
}

impl<'a> Parser<'a> {
    fn new(file: &'a str) -> Parser<'a> {
        Parser {
            file,
            line: 0,
            section: Section::Header,
            id: None,
            map: None,
            source: None,
            reconstructed: None,
            terrain_cols: BTreeMap::new(),
            terrain_section_line: None,
            elevation_cols: BTreeMap::new(),
            elevation_section_line: None,
            county_cols: BTreeMap::new(),
            legend: BTreeMap::new(),
            need_playable: Vec::new(),
            crossings: Vec::new(),
            slopes: Vec::new(),
            counties: Vec::new(),
        }
    }

    fn err(&self, message: impl Into<String>) -> FormatError {
        err_at(self.file, self.line, message)
    }

    fn map_mut(&mut self) -> Result<&mut Map, FormatError> {
        let line = self.line;
        let file = self.file;
        self.map.as_mut().ok_or_else(|| err_at(file, line, "the `grid` line must come before any section"))
    }

    fn grid(&self) -> Result<&Map, FormatError> {
        self.map.as_ref().ok_or_else(|| self.err("the `grid` line must come before any section"))
    }

    fn line_content(&mut self, content: &str) -> Result<(), FormatError> {
        if let Some(rest) = content.strip_prefix('[') {
            let name = rest
                .strip_suffix(']')
                .ok_or_else(|| self.err(format!("section header `{content}` has no closing `]`")))?
                .trim();
            let section = Section::from_name(name).ok_or_else(|| {
                self.err(format!(
                    "unknown section `[{name}]` (known: terrain, elevation, counties, routes, hexsides, hexes)"
                ))
            })?;
            if self.map.is_none() {
                return Err(self.err(format!("section `[{name}]` before the `map` and `grid` lines")));
            }
            if section == Section::Terrain && self.terrain_section_line.is_none() {
                self.terrain_section_line = Some(self.line);
            }
            if section == Section::Elevation && self.elevation_section_line.is_none() {
                self.elevation_section_line = Some(self.line);
            }
            self.section = section;
            return Ok(());
        }
        match self.section {
            Section::Header => self.header(content),
            Section::Terrain => self.terrain(content),
            Section::Elevation => self.elevation_line(content),
            Section::Counties => self.county_line(content),
            Section::Routes => self.route(content),
            Section::Hexsides => self.hexside_line(content),
            Section::Hexes => self.hex_line(content),
        }
    }

    // ----- header -----------------------------------------------------------------------------

    fn header(&mut self, content: &str) -> Result<(), FormatError> {
        let (key, rest) = split_word(content);
        match key {
            "map" => {
                if self.id.is_some() {
                    return Err(self.err("a second `map` line"));
                }
                let (id, rest) = split_word(rest);
                if id.is_empty() || id.starts_with('"') {
                    return Err(self.err("`map` needs an id and a quoted name, e.g. map hsn \"Hood Strikes North\""));
                }
                let name = self.quoted_only(rest, "map name")?;
                self.id = Some((id.to_string(), name));
                Ok(())
            }
            "grid" => self.grid_line(rest),
            "source" => {
                if self.source.is_some() {
                    return Err(self.err("a second `source` line"));
                }
                self.source = Some(self.quoted_only(rest, "source")?);
                Ok(())
            }
            "reconstructed" => {
                if self.reconstructed.is_some() {
                    return Err(self.err("a second `reconstructed` line"));
                }
                self.reconstructed = Some(self.quoted_only(rest, "reconstructed")?);
                Ok(())
            }
            other => Err(self.err(format!(
                "unknown header keyword `{other}` (expected map, grid, source or reconstructed before the first section)"
            ))),
        }
    }

    fn grid_line(&mut self, rest: &str) -> Result<(), FormatError> {
        let Some((id, name)) = self.id.clone() else {
            return Err(self.err("the `map` line must come before `grid`"));
        };
        if self.map.is_some() {
            return Err(self.err("a second `grid` line"));
        }
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let [cols, odd, even, words @ ..] = fields.as_slice() else {
            return Err(
                self.err("`grid` needs three fields: columns (e.g. 01-58), rows in odd columns, rows in even columns")
            );
        };
        let (c0, c1) =
            cols.split_once('-').ok_or_else(|| self.err(format!("grid columns `{cols}` should look like 01-58")))?;
        let c0 = self.number(c0, "first grid column", 0, 99)?;
        let c1 = self.number(c1, "last grid column", 0, 99)?;
        if c1 < c0 {
            return Err(self.err(format!("grid columns `{cols}`: the last column is before the first")));
        }
        let (first_odd, odd) = self.rows(odd, "rows in odd columns")?;
        let (first_even, even) = self.rows(even, "rows in even columns")?;
        if first_odd != first_even {
            return Err(self.err(format!(
                "grid rows: odd columns start at row {first_odd:02} but even ones at {first_even:02}; they must match"
            )));
        }
        let mut grid = Grid::gcacw((c0, c1), odd, even);
        grid.first_row = first_odd;
        for &word in words {
            match word {
                "even-q" => grid.parity = Parity::EvenQ,
                "odd-q" => grid.parity = Parity::OddQ,
                "columns-north" => grid.orientation = Orientation::ColumnsNorth,
                "columns-east" => grid.orientation = Orientation::ColumnsEast,
                "gcacw" => grid.key = TerrainKey::Gcacw,
                "tactical" => grid.key = TerrainKey::Tactical,
                other => {
                    return Err(self.err(format!(
                    "grid: unknown word `{other}` (known: even-q, odd-q, columns-north, columns-east, gcacw, tactical)"
                )))
                }
            }
        }
        self.map = Some(Map::with_grid(&id, &name, grid));
        Ok(())
    }

    /// A row field of the grid line: a count `34` (rows 01–34) or a range `00-40`.
    fn rows(&self, s: &str, what: &str) -> Result<(i16, i16), FormatError> {
        match s.split_once('-') {
            Some((a, b)) => {
                let a = self.number(a, what, 0, 99)?;
                let b = self.number(b, what, 0, 99)?;
                if b < a {
                    return Err(self.err(format!("{what} `{s}`: the last row is before the first")));
                }
                Ok((a, b))
            }
            None => Ok((1, self.number(s, what, 1, 99)?)),
        }
    }

    fn number(&self, s: &str, what: &str, lo: i16, hi: i16) -> Result<i16, FormatError> {
        let s = s.trim();
        let n: i16 = s
            .parse()
            .ok()
            .filter(|_| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| self.err(format!("{what} `{s}` is not a number")))?;
        if !(lo..=hi).contains(&n) {
            return Err(self.err(format!("{what} `{s}` is out of range {lo}–{hi}")));
        }
        Ok(n)
    }

    fn quoted_only(&self, rest: &str, what: &str) -> Result<String, FormatError> {
        let (q, after) = self.quoted(rest, what)?;
        let Some(q) = q else {
            return Err(self.err(format!("{what}: expected a quoted string")));
        };
        if !after.trim().is_empty() {
            return Err(self.err(format!("{what}: unexpected `{}` after the quoted string", after.trim())));
        }
        Ok(q)
    }

    /// An optional quoted string at the start of `s`, and what follows it.
    fn quoted<'s>(&self, s: &'s str, what: &str) -> Result<(Option<String>, &'s str), FormatError> {
        let s = s.trim_start();
        let Some(body) = s.strip_prefix('"') else {
            return Ok((None, s));
        };
        let end = body.find('"').ok_or_else(|| self.err(format!("{what}: unterminated quoted string")))?;
        let (inner, after) = body.split_at(end);
        Ok((Some(inner.to_string()), after.get(1..).unwrap_or("")))
    }

    // ----- hexes ------------------------------------------------------------------------------

    fn hex(&self, s: &str) -> Result<Hex, FormatError> {
        let hex: Hex = s.parse().map_err(|_| self.err(format!("`{s}` is not a hex id (expected four digits XXYY)")))?;
        self.in_grid(hex)?;
        Ok(hex)
    }

    fn in_grid(&self, hex: Hex) -> Result<(), FormatError> {
        let map = self.grid()?;
        if map.in_grid(hex) {
            return Ok(());
        }
        let (c0, c1) = map.columns();
        if !(c0..=c1).contains(&hex.col) {
            Err(self.err(format!("hex {hex}: no such column {:02} (columns {c0:02}–{c1:02})", hex.col)))
        } else {
            Err(self.err(format!(
                "hex {hex}: no such hex in column {:02} (rows {:02}–{:02})",
                hex.col,
                map.first_row(),
                map.rows_in(hex.col)
            )))
        }
    }

    /// A column number at the start of a per-column line, and the rest of the line.
    fn column_line<'s>(&self, content: &'s str, what: &str) -> Result<(i16, &'s str), FormatError> {
        let (col, rest) = split_word(content);
        let col = self.number(col, &format!("{what} column"), 0, 99)?;
        let map = self.grid()?;
        let (c0, c1) = map.columns();
        if !(c0..=c1).contains(&col) {
            return Err(self.err(format!("{what}: no such column {col:02} (columns {c0:02}–{c1:02})")));
        }
        let rows = usize::try_from(map.rows_in(col) - map.first_row() + 1).unwrap_or(0);
        let n = rest.chars().count();
        if n != rows {
            return Err(self.err(format!("{what} column {col:02}: {n} characters, but the column has {rows} rows")));
        }
        Ok((col, rest))
    }

    /// The hex of the `i`-th character of a per-column line.
    fn cell(&self, col: i16, i: usize) -> Result<Hex, FormatError> {
        let first = self.grid()?.first_row();
        Ok(Hex::new(col, first + i16::try_from(i).unwrap_or(i16::MAX - first)))
    }

    fn terrain(&mut self, content: &str) -> Result<(), FormatError> {
        let (col, codes) = self.column_line(content, "terrain")?;
        if let Some(first) = self.terrain_cols.get(&col) {
            return Err(self.err(format!("terrain column {col:02} is listed twice (first on line {first})")));
        }
        let key = self.grid()?.grid().key;
        let mut cells = Vec::new();
        let mut tactical = Vec::new();
        for (i, c) in codes.chars().enumerate() {
            let hex = self.cell(col, i)?;
            if c == '-' {
                continue;
            }
            match key {
                TerrainKey::Gcacw => cells.push((
                    hex,
                    Terrain::from_code(c).ok_or_else(|| {
                        self.err(format!(
                            "hex {hex}: unknown terrain code {c:?} (known: . o r w C s p h m ~ and - for none)"
                        ))
                    })?,
                )),
                TerrainKey::Tactical => tactical.push((
                    hex,
                    TacticalTerrain::from_code(c).ok_or_else(|| {
                        self.err(format!(
                            "hex {hex}: unknown tactical terrain code {c:?} (known: . w c o T b s and - for none)"
                        ))
                    })?,
                )),
            }
        }
        let line = self.line;
        let file = self.file;
        let map = self.map_mut()?;
        for (hex, t) in cells {
            map.set_terrain(hex, t).map_err(|e| err_at(file, line, e.to_string()))?;
        }
        for (hex, t) in tactical {
            map.set_tactical(hex, t).map_err(|e| err_at(file, line, e.to_string()))?;
        }
        self.terrain_cols.insert(col, self.line);
        Ok(())
    }

    fn elevation_line(&mut self, content: &str) -> Result<(), FormatError> {
        if self.grid()?.grid().key != TerrainKey::Tactical {
            return Err(self.err("[elevation] is for tactical maps (add `tactical` to the grid line)"));
        }
        let (col, digits) = self.column_line(content, "elevation")?;
        if let Some(first) = self.elevation_cols.get(&col) {
            return Err(self.err(format!("elevation column {col:02} is listed twice (first on line {first})")));
        }
        let mut cells = Vec::new();
        for (i, c) in digits.chars().enumerate() {
            let hex = self.cell(col, i)?;
            if c == '-' {
                continue;
            }
            let level = c
                .to_digit(10)
                .filter(|&d| d > 0)
                .ok_or_else(|| self.err(format!("hex {hex}: elevation {c:?} should be a digit 1–9 or - for none")))?;
            cells.push((hex, u8::try_from(level).unwrap_or(0)));
        }
        let line = self.line;
        let file = self.file;
        let map = self.map_mut()?;
        for (hex, level) in cells {
            map.set_elevation(hex, level).map_err(|e| err_at(file, line, e.to_string()))?;
        }
        self.elevation_cols.insert(col, self.line);
        Ok(())
    }

    fn county_line(&mut self, content: &str) -> Result<(), FormatError> {
        let (word, rest) = split_word(content);
        if word == "legend" {
            let (letter, name) = split_word(rest);
            let mut chars = letter.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else {
                return Err(self.err(format!("county legend: `{letter}` should be a single letter")));
            };
            if !c.is_ascii_alphabetic() {
                return Err(self.err(format!("county legend: `{c}` should be a letter A–Z or a–z")));
            }
            let name = match self.quoted(name, "county name")? {
                (Some(q), after) if after.trim().is_empty() => q,
                (Some(_), after) => {
                    return Err(self.err(format!("county legend: unexpected `{}` after the name", after.trim())))
                }
                (None, bare) => bare.trim().to_string(),
            };
            if name.is_empty() {
                return Err(self.err(format!("county legend: letter `{c}` has no county name")));
            }
            if self.legend.insert(c, name).is_some() {
                return Err(self.err(format!("county legend: letter `{c}` is defined twice")));
            }
            return Ok(());
        }
        let (col, letters) = self.column_line(content, "county")?;
        if let Some(first) = self.county_cols.get(&col) {
            return Err(self.err(format!("county column {col:02} is listed twice (first on line {first})")));
        }
        for (i, c) in letters.chars().enumerate() {
            let hex = self.cell(col, i)?;
            if c == '-' {
                continue;
            }
            if !self.legend.contains_key(&c) {
                return Err(self.err(format!("hex {hex}: county letter {c:?} is not in the legend")));
            }
            self.counties.push((hex, c));
        }
        self.county_cols.insert(col, self.line);
        Ok(())
    }

    /// `word ["name"]: items`, returning the word, the name and the items.
    fn feature_line<'s>(&self, content: &'s str) -> Result<(&'s str, Option<String>, &'s str), FormatError> {
        let colon = find_outside_quotes(content, ':')
            .ok_or_else(|| self.err(format!("`{content}`: expected `feature [\"name\"]: ...`")))?;
        let (head, items) = content.split_at(colon);
        let items = items.get(1..).unwrap_or("");
        let (word, rest) = split_word(head);
        let (name, after) = self.quoted(rest, word)?;
        if !after.trim().is_empty() {
            return Err(self.err(format!("{word}: unexpected `{}` before the colon", after.trim())));
        }
        Ok((word, name, items))
    }

    fn route(&mut self, content: &str) -> Result<(), FormatError> {
        let (word, name, items) = self.feature_line(content)?;
        let feature = Hexside::from_word(word).filter(|f| Hexside::ANY_ROUTE.contains(*f)).ok_or_else(|| {
            self.err(format!(
                "unknown route feature `{word}` (known: road, pike, trail, railroad, unfinished-railroad)"
            ))
        })?;
        self.check_key(feature, word)?;
        let mut path = Vec::new();
        for item in items.split_whitespace() {
            path.push(self.hex(item)?);
        }
        if path.len() < 2 {
            return Err(self.err(format!("{word}: a route needs at least two hexes")));
        }
        let word = Hexside::NAMED.iter().find(|(_, f)| *f == feature).map_or("route", |(w, _)| *w);
        for pair in path.windows(2) {
            let &[a, b] = pair else { continue };
            if self.grid()?.direction(a, b).is_none() {
                return Err(self.err(format!("{word}: hex {b} does not neighbour the previous hex {a}")));
            }
        }
        let line = self.line;
        for &h in &path {
            self.need_playable.push((line, h, word));
        }
        let file = self.file;
        let map = self.map_mut()?;
        for pair in path.windows(2) {
            if let &[a, b] = pair {
                map.add_hexside(a, b, feature).map_err(|e| err_at(file, line, format!("{word}: {e}")))?;
                if let Some(name) = &name {
                    map.add_named(name, a, b);
                }
            }
        }
        Ok(())
    }

    fn hexside_line(&mut self, content: &str) -> Result<(), FormatError> {
        let (word, name, items) = self.feature_line(content)?;
        let ridge = word == "ridge";
        let feature = if ridge {
            Hexside::RIDGE_UP_FIRST
        } else {
            Hexside::from_word(word).filter(|f| !Hexside::RIDGE.intersects(*f)).ok_or_else(|| {
                self.err(format!(
                    "unknown hexside feature `{word}` (known: ridge, major-river, minor-river, creek, ford, bridge, dam, ferry, all-water, county-border, stone-fence, wood-fence, slope, steep-slope, river, and the route words)"
                ))
            })?
        };
        self.check_key(feature, word)?;
        let word: &'static str = if ridge {
            "ridge"
        } else {
            Hexside::NAMED.iter().find(|(_, f)| *f == feature).map_or("hexside", |(w, _)| *w)
        };
        let sep = if ridge { '>' } else { '/' };
        let mut pairs = Vec::new();
        for item in items.split_whitespace() {
            let (a, b) = item.split_once(sep).ok_or_else(|| {
                if ridge {
                    self.err(format!("ridge: `{item}` should be upper>lower, e.g. 2030>2031"))
                } else {
                    self.err(format!("{word}: `{item}` should be a hexside pair a/b, e.g. 1714/1715"))
                }
            })?;
            let (a, b) = (self.hex(a)?, self.hex(b)?);
            if self.grid()?.direction(a, b).is_none() {
                return Err(self.err(format!("{word}: hexes {a} and {b} are not adjacent")));
            }
            pairs.push((a, b));
        }
        if pairs.is_empty() {
            return Err(self.err(format!("{word}: no hexsides listed")));
        }
        let line = self.line;
        if Hexside::CROSSING.intersects(feature) {
            for &(a, b) in &pairs {
                self.crossings.push((line, a, b, word));
            }
        }
        if Hexside::ANY_SLOPE.intersects(feature) {
            for &(a, b) in &pairs {
                self.slopes.push((line, a, b, word));
            }
        }
        let file = self.file;
        let map = self.map_mut()?;
        for (a, b) in pairs {
            if let Some(name) = &name {
                map.add_named(name, a, b);
            }
            let r = if ridge { map.set_ridge(a, b) } else { map.add_hexside(a, b, feature) };
            r.map_err(|e| err_at(file, line, format!("{word}: {e}")))?;
        }
        Ok(())
    }

    /// Refuses a feature of the other terrain key (a fence on a GCACW map, a pike on a tactical one).
    fn check_key(&self, feature: Hexside, word: &str) -> Result<(), FormatError> {
        let key = self.grid()?.grid().key;
        let foreign = match key {
            TerrainKey::Gcacw => Hexside::TACTICAL_ONLY,
            TerrainKey::Tactical => Hexside::GCACW_ONLY,
        };
        if feature.intersects(foreign) {
            return Err(self.err(format!("`{word}` is not a feature of {} maps", key.word())));
        }
        Ok(())
    }

    fn hex_line(&mut self, content: &str) -> Result<(), FormatError> {
        let (word, rest) = split_word(content);
        let (hex_s, rest) = split_word(rest);
        if hex_s.is_empty() {
            return Err(self.err(format!("{word}: expected a hex id")));
        }
        let (name, after) = self.quoted(rest, word)?;
        if !after.trim().is_empty() {
            return Err(self.err(format!("{word}: unexpected `{}` (names must be quoted)", after.trim())));
        }
        let feature = if word == "place" {
            None
        } else {
            Some(HexFeature::from_word(word).ok_or_else(|| {
                self.err(format!(
                    "unknown hex feature `{word}` (known: place, village, station, redoubt, fort-a, fort-b, landing)"
                ))
            })?)
        };
        let hex = self.hex(hex_s)?;
        if feature.is_none() && name.is_none() {
            return Err(self.err(format!("place {hex}: a place needs a quoted name")));
        }
        let line = self.line;
        let file = self.file;
        if let Some(f) = feature {
            self.need_playable.push((line, hex, f.word()));
        }
        let map = self.map_mut()?;
        if let Some(f) = feature {
            map.add_feature(hex, f).map_err(|e| err_at(file, line, e.to_string()))?;
        }
        if let Some(name) = name {
            if name.trim().is_empty() {
                return Err(err_at(file, line, format!("{word} {hex}: empty name")));
            }
            map.add_place(hex, &name).map_err(|e| err_at(file, line, e.to_string()))?;
        }
        Ok(())
    }

    // ----- end of file ------------------------------------------------------------------------

    fn finish(mut self) -> Result<Map, FormatError> {
        let Some(mut map) = self.map.take() else {
            return Err(self.err("no `map` and `grid` lines: this is not a map file"));
        };
        let Some(terrain_line) = self.terrain_section_line else {
            return Err(self.err("no [terrain] section"));
        };
        let (c0, c1) = map.columns();
        for col in c0..=c1 {
            if !self.terrain_cols.contains_key(&col) {
                return Err(err_at(self.file, terrain_line, format!("terrain: column {col:02} is missing")));
            }
        }
        for &(line, hex, what) in &self.need_playable {
            if !map.contains(hex) {
                return Err(err_at(self.file, line, format!("{what}: hex {hex} is not playable (no terrain)")));
            }
        }
        for &(line, a, b, what) in &self.crossings {
            if !map.hexside(a, b).intersects(Hexside::ANY_RIVER) {
                return Err(err_at(self.file, line, format!("{what} on hexside {a}/{b}, which has no river")));
            }
        }
        if map.grid().key == TerrainKey::Tactical {
            let Some(elev_line) = self.elevation_section_line else {
                return Err(self.err("a tactical map needs an [elevation] section"));
            };
            for col in c0..=c1 {
                let Some(&line) = self.elevation_cols.get(&col) else {
                    return Err(err_at(self.file, elev_line, format!("elevation: column {col:02} is missing")));
                };
                let missing = map.hexes().find(|h| h.col == col && map.elevation(*h).is_none());
                if let Some(hex) = missing {
                    return Err(err_at(self.file, line, format!("elevation: playable hex {hex} has no level")));
                }
            }
        }
        for &(line, a, b, what) in &self.slopes {
            if map.elevation(a) == map.elevation(b) {
                return Err(err_at(
                    self.file,
                    line,
                    format!("{what} on hexside {a}/{b}, whose two hexes are at the same elevation"),
                ));
            }
        }
        for &(hex, c) in &self.counties {
            let name = self.legend.get(&c).map_or("", String::as_str);
            map.set_county(hex, name).map_err(|e| err_at(self.file, self.line, e.to_string()))?;
        }
        derive_county_borders(&mut map);
        if let Some(src) = self.source.take() {
            map.source = src;
        }
        if let Some(why) = self.reconstructed.take() {
            map.reconstructed = true;
            map.source = if map.source.is_empty() {
                why
            } else {
                format!("{}. Reconstructed: {why}", map.source.trim_end_matches('.'))
            };
        }
        Ok(map)
    }
}

/// Puts a county border on every hexside between two playable hexes of different counties.
fn derive_county_borders(map: &mut Map) {
    let hexes: Vec<Hex> = map.hexes().collect();
    let mut borders = Vec::new();
    for hex in hexes {
        let Some(mine) = map.county(hex) else {
            continue;
        };
        for (d, n) in map.neighbors(hex) {
            if d.index() >= 3 {
                continue;
            }
            if let Some(theirs) = map.county(n) {
                if theirs != mine {
                    borders.push((hex, n));
                }
            }
        }
    }
    for (a, b) in borders {
        // Both hexes are playable neighbours, so this cannot fail.
        let _ = map.add_hexside(a, b, Hexside::COUNTY_BORDER);
    }
}

/// The line without its comment: everything from a `#` outside double quotes.
fn strip_comment(line: &str) -> &str {
    match find_outside_quotes(line, '#') {
        Some(i) => line.get(..i).unwrap_or(line),
        None => line,
    }
}

fn find_outside_quotes(s: &str, target: char) -> Option<usize> {
    let mut quoted = false;
    for (i, c) in s.char_indices() {
        if c == '"' {
            quoted = !quoted;
        } else if c == target && !quoted {
            return Some(i);
        }
    }
    None
}

/// The first whitespace-separated word and the rest (trimmed at the start).
fn split_word(s: &str) -> (&str, &str) {
    let s = s.trim_start();
    match s.find(char::is_whitespace) {
        Some(i) => {
            let (a, b) = s.split_at(i);
            (a, b.trim_start())
        }
        None => (s, ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> Hex {
        s.parse().expect("test hex")
    }

    const SMALL: &str = r#"
map t "Test map"   # a comment
grid 01-04 4 3
source "made up for a test # not a comment"
reconstructed "it is a test"

[terrain]
01 ..or
02 wC-
03 hmps
04 ~..

[counties]
legend A Alpha
legend B "Beta County"
01 AABB
02 AAB
03 AAB-
04 ---

[routes]
pike "Test Pike": 0101 0201 0301 0401
road: 0103 0202 0302

[hexsides]
minor-river "Test River": 0102/0202 0202/0103
ford: 0202/0103
bridge: 0102/0202
creek: 0303/0304
ridge: 0302>0303

[hexes]
village 0101 "Alphaville"
station 0201
place 0304 "Marsh"
"#;

    #[test]
    fn a_small_map_parses() {
        let m = parse(SMALL, "small.txt").expect("parses");
        assert_eq!(m.id, "t");
        assert_eq!(m.name, "Test map");
        assert!(m.reconstructed);
        assert!(m.source.contains("# not a comment") && m.source.contains("it is a test"));
        assert_eq!(m.terrain(h("0202")), Some(Terrain::City));
        assert_eq!(m.terrain(h("0203")), None);
        assert_eq!(m.terrain(h("0304")), Some(Terrain::Swamp));
        assert_eq!(m.hexes().count(), 13);
        assert!(m.hexside(h("0201"), h("0301")).contains(Hexside::PIKE));
        assert!(m.hexside(h("0202"), h("0103")).contains(Hexside::ROAD | Hexside::MINOR_RIVER | Hexside::FORD));
        assert_eq!(m.ridge(h("0303"), h("0302")), crate::map::Ridge::Up);
        assert!(m.has_feature(h("0101"), HexFeature::Village));
        assert_eq!(m.place_name(h("0101")), Some("Alphaville"));
        assert_eq!(m.place_name(h("0201")), None);
        assert_eq!(m.county(h("0102")), Some("Alpha"));
        assert_eq!(m.county(h("0103")), Some("Beta County"));
        // Derived borders: 0102|0103 (Alpha|Beta) yes; 0101|0102 (both Alpha) no.
        assert!(m.hexside(h("0102"), h("0103")).contains(Hexside::COUNTY_BORDER));
        assert!(!m.hexside(h("0101"), h("0102")).contains(Hexside::COUNTY_BORDER));
        // Column 04 has no county: no border against it.
        assert!(!m.hexside(h("0301"), h("0401")).contains(Hexside::COUNTY_BORDER));
    }

    fn fails(text: &str) -> String {
        match parse(text, "bad.txt") {
            Ok(_) => panic!("should not parse:\n{text}"),
            Err(e) => e.to_string(),
        }
    }

    fn with(section: &str, line: &str) -> String {
        SMALL.replace(section, &format!("{section}\n{line}"))
    }

    #[test]
    fn errors_name_file_line_and_what() {
        let e = fails(&SMALL.replace("01 ..or", "01 ..o"));
        assert!(e.starts_with("bad.txt:8:") && e.contains("column 01") && e.contains("3 characters"), "{e}");
        let e = fails(&SMALL.replace("01 ..or", "01 ..ox"));
        assert!(e.starts_with("bad.txt:8:") && e.contains("hex 0104") && e.contains("'x'"), "{e}");
        let e = fails(&SMALL.replace("0101 0201 0301", "0101 0301"));
        assert!(e.contains("bad.txt:") && e.contains("0301") && e.contains("0101"), "{e}");
        let e = fails(&SMALL.replace("0201 0301 0401", "0201 0301 0405"));
        assert!(e.contains("hex 0405: no such hex in column 04 (rows 01–03)"), "{e}");
        let e = fails(&with("[hexsides]", "ford: 0101/0102"));
        assert!(e.starts_with("bad.txt:26:") && e.contains("0101/0102") && e.contains("ford"), "{e}");
        let e = fails(&SMALL.replace("[hexes]", "[places]"));
        assert!(e.contains("unknown section `[places]`"), "{e}");
        let e = fails(&SMALL.replace("02 AAB", "02 AXB"));
        assert!(e.contains("hex 0202") && e.contains("'X'"), "{e}");
        let e = fails(&with("[routes]", "river: 0101 0102"));
        assert!(e.contains("unknown route feature `river`"), "{e}");
        let e = fails(&with("[hexsides]", "creek: 0101/0103"));
        assert!(e.contains("0101 and 0103 are not adjacent"), "{e}");
        let e = fails(&SMALL.replace("04 ~..", ""));
        assert!(e.contains("column 04 is missing"), "{e}");
        let e = fails(&with("[hexes]", "fort-c 0101"));
        assert!(e.contains("unknown hex feature `fort-c`"), "{e}");
        let e = fails(&with("[hexes]", "village 0203 \"Nowhere\""));
        assert!(e.contains("hex 0203 is not playable"), "{e}");
        let e = fails(&with("[terrain]", "01 ...."));
        assert!(e.contains("listed twice"), "{e}");
    }

    const TACTICAL: &str = r#"
map p "Tactical test"
grid 10-12 00-03 00-03 odd-q columns-east tactical
[terrain]
10 .wcT
11 obs.
12 ....
[elevation]
10 1234
11 1123
12 5555
[routes]
road "Pike": 1000 1100 1200
trail: 1002 1101
[hexsides]
river "Creek": 1001/1101 1002/1101
ford: 1002/1101
steep-slope: 1103/1203
slope: 1003/1102
stone-fence: 1000/1001
wood-fence: 1001/1002
[hexes]
place 1101 "Farm"
"#;

    #[test]
    fn a_tactical_map_parses() {
        let m = parse(TACTICAL, "t.txt").expect("parses");
        let g = m.grid();
        assert_eq!(
            (g.parity, g.orientation, g.key, g.first_row),
            (crate::Parity::OddQ, Orientation::ColumnsEast, TerrainKey::Tactical, 0)
        );
        assert_eq!(m.hexes().count(), 12);
        assert_eq!(m.tactical(h("1000")), Some(TacticalTerrain::Clear));
        assert_eq!(m.tactical(h("1003")), Some(TacticalTerrain::Town));
        assert_eq!(m.tactical(h("1100")), Some(TacticalTerrain::Orchard));
        assert_eq!(m.terrain(h("1000")), None, "no GCACW terrain on a tactical map");
        assert_eq!((m.elevation(h("1003")), m.elevation(h("1200"))), (Some(4), Some(5)));
        // Odd-q: 1002 and 1101 are adjacent (column 11 sits lower), which even-q would refuse.
        assert!(m.hexside(h("1101"), h("1002")).contains(Hexside::TACTICAL_RIVER | Hexside::FORD | Hexside::TRAIL));
        assert!(m.hexside(h("1203"), h("1103")).contains(Hexside::STEEP_SLOPE));
        assert!(m.hexside(h("1001"), h("1000")).contains(Hexside::STONE_FENCE));
        assert!(m.hexside(h("1100"), h("1200")).contains(Hexside::ROAD));
    }

    #[test]
    fn tactical_errors_name_file_line_and_what() {
        let bad = |from: &str, to: &str| {
            let text = TACTICAL.replace(from, to);
            match parse(&text, "t.txt") {
                Ok(_) => panic!("should not parse: {to}"),
                Err(e) => e.to_string(),
            }
        };
        let e = bad("10 1234", "10 1x34");
        assert!(e.starts_with("t.txt:9:") && e.contains("hex 1001") && e.contains("'x'"), "{e}");
        let e = bad("10 1234", "10 1-34");
        assert!(e.starts_with("t.txt:9:") && e.contains("1001 has no level"), "{e}");
        let e = bad("10 .wcT", "10 .wcC");
        assert!(e.starts_with("t.txt:5:") && e.contains("tactical terrain code 'C'"), "{e}");
        let e = bad("slope: 1003/1102", "slope: 1000/1100");
        assert!(e.starts_with("t.txt:19:") && e.contains("1000/1100") && e.contains("same elevation"), "{e}");
        let e = bad("trail: 1002 1101", "pike: 1002 1101");
        assert!(e.contains("`pike` is not a feature of tactical maps"), "{e}");
        let e = bad("odd-q columns-east", "odd-q sideways");
        assert!(e.contains("unknown word `sideways`"), "{e}");
        let e = bad("00-03 00-03", "00-03 01-03");
        assert!(e.contains("must match"), "{e}");
        let e = bad("[elevation]", "[nothing]");
        assert!(e.contains("unknown section"), "{e}");
        // A tactical word on a GCACW map, and an elevation section there.
        let e = fails(&with("[hexsides]", "stone-fence: 0101/0102"));
        assert!(e.contains("`stone-fence` is not a feature of gcacw maps"), "{e}");
        let e = fails(&SMALL.replace("[counties]", "[elevation]\n01 1111\n[counties]"));
        assert!(e.contains("[elevation] is for tactical maps"), "{e}");
    }

    #[test]
    fn io_errors_name_the_file() {
        let e = load(Path::new("/no/such/dir/map.txt")).expect_err("missing file");
        assert!(e.to_string().contains("/no/such/dir/map.txt"), "{e}");
        assert_eq!(e.line(), None);
    }

    /// Feeding garbage must give errors, never panics.
    #[test]
    fn garbage_never_panics() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let alphabet: Vec<char> = "[]#\"/:>-. \n\t0123456789abcrwmsphC~ampgridlegend\u{e9}\u{1F600}".chars().collect();
        for round in 0..400 {
            let len = (round * 7) % 300;
            let mut text = String::new();
            if round % 3 == 0 {
                text.push_str("map x \"x\"\ngrid 01-03 3 2\n[terrain]\n");
            }
            for _ in 0..len {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let i = usize::try_from(seed % alphabet.len() as u64).unwrap_or(0);
                text.push(alphabet.get(i).copied().unwrap_or('x'));
            }
            let _ = parse(&text, "garbage.txt");
        }
        // Mutations of a valid file: every single-line deletion and truncation.
        let lines: Vec<&str> = SMALL.lines().collect();
        for i in 0..lines.len() {
            let mut v = lines.clone();
            v.remove(i);
            let _ = parse(&v.join("\n"), "mut.txt");
            for cut in [1, 3, 6] {
                let mut w = lines.clone();
                if let Some(l) = w.get_mut(i) {
                    *l = l.get(..l.len().saturating_sub(cut)).unwrap_or("");
                }
                let _ = parse(&w.join("\n"), "cut.txt");
            }
        }
        for bad in [
            "",
            "map",
            "map x",
            "grid 01-58 34 33",
            "map x \"y\"\ngrid 99-01 3 3",
            "map x \"y\"\ngrid 00-99 99 99\n[terrain]\n00 ",
            "map x \"y\"\ngrid 01-02 0 0",
            "map x \"y\"\ngrid 01-02 2 2\n[terrain]\n01 ..\n02 ..\n[routes]\npike \"unterminated: 0101 0102",
            "map x \"y\"\ngrid 01-02 2 2\n[terrain]\n01 ..\n02 ..\n[hexsides]\nridge: 0101/0102",
            "map x \"y\"\ngrid 01-02 2 2\n[terrain]\n01 ..\n02 ..\n[hexes]\nvillage",
            "map x \"y\"\ngrid 01-02 2 2\n[terrain]\n01 \u{e9}\u{e9}\n02 ..",
            "[terrain",
            "map x \"y\"\ngrid 01-02 2 2\n[counties]\nlegend \u{e9} E\n01 ..",
        ] {
            assert!(parse(bad, "x.txt").is_err(), "{bad:?} should be refused");
        }
    }
}
