//! The map model: which hexes exist, their terrain and features, and the features of every
//! hexside between them. Built by [`crate::format`] from a map file, read by the rules.

use std::collections::BTreeMap;

use crate::hex::{Direction, Hex, Parity};
use crate::terrain::{HexFeature, Hexside, TacticalTerrain, Terrain, TerrainKey};

/// How the columns of a grid lie on the page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Orientation {
    /// Columns are horizontal bands, the highest column at the top (north) and rows increasing
    /// to the right (east); hexes are pointy-topped (HSN).
    #[default]
    ColumnsNorth,
    /// Columns are vertical, increasing to the right (east), rows increasing downwards (south);
    /// hexes are flat-topped (Perryville).
    ColumnsEast,
}

impl Orientation {
    /// The map-file word.
    #[must_use]
    pub const fn word(self) -> &'static str {
        match self {
            Orientation::ColumnsNorth => "columns-north",
            Orientation::ColumnsEast => "columns-east",
        }
    }
}

/// The shape of a map's grid: its columns, rows, parity, orientation and terrain legend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Grid {
    /// First and last column, inclusive.
    pub cols: (i16, i16),
    /// The first row of every column (1 on HSN, 0 on Perryville).
    pub first_row: i16,
    /// The last row of odd columns.
    pub last_row_odd: i16,
    /// The last row of even columns.
    pub last_row_even: i16,
    /// Which columns sit half a hex further along their rows.
    pub parity: Parity,
    /// How the grid lies on the page.
    pub orientation: Orientation,
    /// Which terrain legend the hexes use.
    pub key: TerrainKey,
}

impl Grid {
    /// A GCACW grid: rows from 1, even-q, columns stacked northwards.
    #[must_use]
    pub const fn gcacw(cols: (i16, i16), rows_odd: i16, rows_even: i16) -> Grid {
        Grid {
            cols,
            first_row: 1,
            last_row_odd: rows_odd,
            last_row_even: rows_even,
            parity: Parity::EvenQ,
            orientation: Orientation::ColumnsNorth,
            key: TerrainKey::Gcacw,
        }
    }
}

/// A named place printed on the map.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Place {
    /// Where it is.
    pub hex: Hex,
    /// Its printed name.
    pub name: String,
}

/// Which way a move crosses a ridge hexside (GCACW 6.1, 7.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ridge {
    /// No ridge on the hexside.
    None,
    /// Moving from the lower hex to the upper one.
    Up,
    /// Moving from the upper hex to the lower one.
    Down,
}

/// Something wrong with a hex or hexside given to the map builder.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MapError {
    /// The hex is outside the map's grid.
    #[error("hex {0} is not on the map")]
    OffMap(Hex),
    /// The two hexes of a hexside are not neighbours.
    #[error("hexes {0} and {1} are not adjacent, so they share no hexside")]
    NotAdjacent(Hex, Hex),
}

/// A hex map: a [`Grid`] of columns `min_col..=max_col`, odd columns holding rows
/// `first_row..=last_row_odd` and even columns `first_row..=last_row_even`. A hex of the grid with
/// no terrain is not playable (a partial edge hex). Neighbours, hexsides and distances follow the
/// grid's [`Parity`]: on a map that is not even-q, use [`Map::distance`] and [`Map::neighbor`],
/// not the even-q methods of [`Hex`].
#[derive(Clone, Debug)]
pub struct Map {
    /// Short id, e.g. `hsn`.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Where the map data comes from.
    pub source: String,
    /// Whether the map is a reconstruction rather than a transcription of the printed map.
    pub reconstructed: bool,
    grid: Grid,
    min_col: i16,
    max_col: i16,
    stride: usize,
    terrain: Vec<Option<Terrain>>,
    tactical: Vec<Option<TacticalTerrain>>,
    elevation: Vec<u8>,
    sides: Vec<Hexside>,
    features: BTreeMap<Hex, Vec<HexFeature>>,
    places: Vec<Place>,
    county: Vec<Option<u8>>,
    county_names: Vec<String>,
    named: BTreeMap<String, Vec<(Hex, Hex)>>,
}

impl Map {
    /// An empty GCACW map (no playable hex yet): columns `cols`, rows from 1, even-q.
    #[must_use]
    pub fn new(id: &str, name: &str, cols: (i16, i16), rows_odd: i16, rows_even: i16) -> Map {
        Map::with_grid(id, name, Grid::gcacw(cols, rows_odd, rows_even))
    }

    /// An empty map (no playable hex yet) on any grid.
    #[must_use]
    pub fn with_grid(id: &str, name: &str, grid: Grid) -> Map {
        let cols = grid.cols;
        let stride = (grid.last_row_odd.max(grid.last_row_even) - grid.first_row + 1).max(0) as usize;
        let n = (cols.1 - cols.0 + 1).max(0) as usize * stride;
        Map {
            id: id.to_string(),
            name: name.to_string(),
            source: String::new(),
            reconstructed: false,
            grid,
            min_col: cols.0,
            max_col: cols.1,
            stride,
            terrain: vec![None; n],
            tactical: vec![None; n],
            elevation: vec![0; n],
            sides: vec![Hexside::NONE; n * 3],
            features: BTreeMap::new(),
            places: Vec::new(),
            county: vec![None; n],
            county_names: Vec::new(),
            named: BTreeMap::new(),
        }
    }

    /// Columns of the grid, inclusive.
    #[must_use]
    pub fn columns(&self) -> (i16, i16) {
        (self.min_col, self.max_col)
    }

    /// The grid: columns, rows, parity, orientation and terrain legend.
    #[must_use]
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// Which columns sit half a hex further along their rows.
    #[must_use]
    pub fn parity(&self) -> Parity {
        self.grid.parity
    }

    /// The last row of a column of the grid (its number of rows when rows start at 1).
    #[must_use]
    pub fn rows_in(&self, col: i16) -> i16 {
        if col % 2 == 0 {
            self.grid.last_row_even
        } else {
            self.grid.last_row_odd
        }
    }

    /// The first row of every column.
    #[must_use]
    pub fn first_row(&self) -> i16 {
        self.grid.first_row
    }

    /// Whether the hex lies in the grid (playable or not).
    #[must_use]
    pub fn in_grid(&self, hex: Hex) -> bool {
        (self.min_col..=self.max_col).contains(&hex.col)
            && (self.grid.first_row..=self.rows_in(hex.col)).contains(&hex.row)
    }

    /// Dense index of a grid hex, for per-hex arrays of size [`Map::index_len`].
    #[must_use]
    pub fn index(&self, hex: Hex) -> Option<usize> {
        self.in_grid(hex)
            .then(|| (hex.col - self.min_col) as usize * self.stride + (hex.row - self.grid.first_row) as usize)
    }

    /// Size of a dense per-hex array.
    #[must_use]
    pub fn index_len(&self) -> usize {
        self.terrain.len()
    }

    /// The hex at a dense index.
    #[must_use]
    pub fn hex_at(&self, index: usize) -> Hex {
        Hex::new(self.min_col + (index / self.stride) as i16, (index % self.stride) as i16 + self.grid.first_row)
    }

    /// Whether units can be on this hex: it is in the grid and has terrain.
    #[must_use]
    pub fn contains(&self, hex: Hex) -> bool {
        self.index(hex).is_some_and(|i| self.playable(i))
    }

    fn playable(&self, i: usize) -> bool {
        self.terrain[i].is_some() || self.tactical[i].is_some()
    }

    /// The major terrain of a playable hex of a GCACW map.
    #[must_use]
    pub fn terrain(&self, hex: Hex) -> Option<Terrain> {
        self.index(hex).and_then(|i| self.terrain[i])
    }

    /// The terrain of a playable hex of a tactical map.
    #[must_use]
    pub fn tactical(&self, hex: Hex) -> Option<TacticalTerrain> {
        self.index(hex).and_then(|i| self.tactical[i])
    }

    /// The elevation level of a hex, where the map records one.
    #[must_use]
    pub fn elevation(&self, hex: Hex) -> Option<u8> {
        self.index(hex).map(|i| self.elevation[i]).filter(|&e| e > 0)
    }

    /// Every playable hex, in printed order.
    pub fn hexes(&self) -> impl Iterator<Item = Hex> + '_ {
        (0..self.terrain.len()).filter(|&i| self.playable(i)).map(|i| self.hex_at(i))
    }

    /// The neighbour of a hex in direction `d`, by the map's parity (it may be off the map).
    #[must_use]
    pub fn neighbor(&self, hex: Hex, d: Direction) -> Hex {
        self.grid.parity.neighbor(hex, d)
    }

    /// The direction from `a` to `b`, if they are adjacent on this map's grid.
    #[must_use]
    pub fn direction(&self, a: Hex, b: Hex) -> Option<Direction> {
        self.grid.parity.direction(a, b)
    }

    /// Hex distance on this map's grid, whatever the terrain.
    #[must_use]
    pub fn distance(&self, a: Hex, b: Hex) -> u16 {
        self.grid.parity.distance(a, b)
    }

    /// Playable neighbours of a hex.
    pub fn neighbors(&self, hex: Hex) -> impl Iterator<Item = (Direction, Hex)> + '_ {
        self.grid.parity.neighbors(hex).filter(|(_, n)| self.contains(*n))
    }

    fn side_slot(&self, hex: Hex, d: Direction) -> Option<(usize, bool)> {
        if d.index() < 3 {
            self.index(hex).map(|i| (i * 3 + d.index(), true))
        } else {
            self.index(self.neighbor(hex, d)).map(|i| (i * 3 + d.opposite().index(), false))
        }
    }

    /// The features of the hexside of `hex` in direction `d`. Ridge bits are turned so that
    /// `RIDGE_UP_FIRST` means `hex` is the upper side.
    #[must_use]
    pub fn hexside_dir(&self, hex: Hex, d: Direction) -> Hexside {
        match self.side_slot(hex, d) {
            Some((slot, true)) => self.sides[slot],
            Some((slot, false)) => flip_ridge(self.sides[slot]),
            None => Hexside::NONE,
        }
    }

    /// The features of the hexside between two adjacent hexes (none if not adjacent).
    #[must_use]
    pub fn hexside(&self, a: Hex, b: Hex) -> Hexside {
        self.direction(a, b).map_or(Hexside::NONE, |d| self.hexside_dir(a, d))
    }

    /// Which way a move from `from` to the adjacent `to` crosses a ridge.
    #[must_use]
    pub fn ridge(&self, from: Hex, to: Hex) -> Ridge {
        let side = self.hexside(from, to);
        if side.contains(Hexside::RIDGE_UP_FIRST) {
            Ridge::Down
        } else if side.contains(Hexside::RIDGE_UP_SECOND) {
            Ridge::Up
        } else {
            Ridge::None
        }
    }

    /// Whether the hexside between two adjacent hexes is a woods hexside: one of the two hexes is
    /// woods (GCACW 2.3).
    #[must_use]
    pub fn is_woods_hexside(&self, a: Hex, b: Hex) -> bool {
        self.terrain(a) == Some(Terrain::Woods) || self.terrain(b) == Some(Terrain::Woods)
    }

    /// In-hex features (stations, redoubts, forts, villages).
    #[must_use]
    pub fn features(&self, hex: Hex) -> &[HexFeature] {
        self.features.get(&hex).map_or(&[], Vec::as_slice)
    }

    /// Whether the hex has the feature.
    #[must_use]
    pub fn has_feature(&self, hex: Hex, f: HexFeature) -> bool {
        self.features(hex).contains(&f)
    }

    /// Every hex with any in-hex feature.
    pub fn featured_hexes(&self) -> impl Iterator<Item = (Hex, &[HexFeature])> + '_ {
        self.features.iter().map(|(h, f)| (*h, f.as_slice()))
    }

    /// Named places.
    #[must_use]
    pub fn places(&self) -> &[Place] {
        &self.places
    }

    /// The first place name printed in a hex.
    #[must_use]
    pub fn place_name(&self, hex: Hex) -> Option<&str> {
        self.places.iter().find(|p| p.hex == hex).map(|p| p.name.as_str())
    }

    /// The county a hex lies in, where the map records counties.
    #[must_use]
    pub fn county(&self, hex: Hex) -> Option<&str> {
        let i = self.index(hex)?;
        self.county[i].map(|c| self.county_names[c as usize].as_str())
    }

    /// A label for a hex: its id and, if any, its place name.
    #[must_use]
    pub fn label(&self, hex: Hex) -> String {
        match self.place_name(hex) {
            Some(name) => format!("{hex} ({name})"),
            None => hex.to_string(),
        }
    }

    /// The hexsides of a named feature (a river, a pike...), as the map file lists them.
    #[must_use]
    pub fn named_hexsides(&self, name: &str) -> &[(Hex, Hex)] {
        self.named.get(name).map_or(&[], Vec::as_slice)
    }

    /// The hexes on one side of a named line feature: those joined to `from` without crossing any
    /// of its hexsides (e.g. the hexes south of the Duck River, from a hex on the south edge).
    #[must_use]
    pub fn side_of(&self, feature: &str, from: Hex) -> Vec<bool> {
        self.side_of_within(feature, from, |_, _| true)
    }

    /// As [`Map::side_of`], crossing only the hexsides `open(a, b)` allows besides: a boundary
    /// the feature alone does not close (e.g. a river that rises inside the map, extended by a
    /// ruling) can be drawn by the caller.
    #[must_use]
    pub fn side_of_within(&self, feature: &str, from: Hex, open: impl Fn(Hex, Hex) -> bool) -> Vec<bool> {
        let sides = self.named_hexsides(feature);
        let mut inside = vec![false; self.index_len()];
        let mut stack = vec![from];
        while let Some(h) = stack.pop() {
            let Some(i) = self.index(h) else { continue };
            if inside[i] || !self.contains(h) {
                continue;
            }
            inside[i] = true;
            for (_, n) in self.neighbors(h) {
                if open(h, n) && !sides.iter().any(|&(a, b)| (a, b) == (h, n) || (b, a) == (h, n)) {
                    stack.push(n);
                }
            }
        }
        inside
    }

    // ----- building -------------------------------------------------------------------------

    /// Sets the terrain of a grid hex, making it playable.
    ///
    /// # Errors
    /// The hex is outside the grid.
    pub fn set_terrain(&mut self, hex: Hex, t: Terrain) -> Result<(), MapError> {
        let i = self.index(hex).ok_or(MapError::OffMap(hex))?;
        self.terrain[i] = Some(t);
        Ok(())
    }

    /// Sets the terrain of a grid hex of a tactical map, making it playable.
    ///
    /// # Errors
    /// The hex is outside the grid.
    pub fn set_tactical(&mut self, hex: Hex, t: TacticalTerrain) -> Result<(), MapError> {
        let i = self.index(hex).ok_or(MapError::OffMap(hex))?;
        self.tactical[i] = Some(t);
        Ok(())
    }

    /// Sets the elevation level of a grid hex (0 clears it).
    ///
    /// # Errors
    /// The hex is outside the grid.
    pub fn set_elevation(&mut self, hex: Hex, level: u8) -> Result<(), MapError> {
        let i = self.index(hex).ok_or(MapError::OffMap(hex))?;
        self.elevation[i] = level;
        Ok(())
    }

    /// Adds features to the hexside between two adjacent hexes.
    ///
    /// # Errors
    /// A hex is off the grid, or the two are not adjacent.
    pub fn add_hexside(&mut self, a: Hex, b: Hex, f: Hexside) -> Result<(), MapError> {
        let d = self.direction(a, b).ok_or(MapError::NotAdjacent(a, b))?;
        for h in [a, b] {
            if !self.in_grid(h) {
                return Err(MapError::OffMap(h));
            }
        }
        let (slot, owner_first) = self.side_slot(a, d).ok_or(MapError::OffMap(a))?;
        self.sides[slot] |= if owner_first { f } else { flip_ridge(f) };
        Ok(())
    }

    /// Marks a ridge on the hexside between `upper` and the adjacent `lower`.
    ///
    /// # Errors
    /// As [`Map::add_hexside`].
    pub fn set_ridge(&mut self, upper: Hex, lower: Hex) -> Result<(), MapError> {
        self.add_hexside(upper, lower, Hexside::RIDGE_UP_FIRST)
    }

    /// Adds an in-hex feature.
    ///
    /// # Errors
    /// The hex is off the grid.
    pub fn add_feature(&mut self, hex: Hex, f: HexFeature) -> Result<(), MapError> {
        if !self.in_grid(hex) {
            return Err(MapError::OffMap(hex));
        }
        let list = self.features.entry(hex).or_default();
        if !list.contains(&f) {
            list.push(f);
        }
        Ok(())
    }

    /// Adds a place name.
    ///
    /// # Errors
    /// The hex is off the grid.
    pub fn add_place(&mut self, hex: Hex, name: &str) -> Result<(), MapError> {
        if !self.in_grid(hex) {
            return Err(MapError::OffMap(hex));
        }
        self.places.push(Place { hex, name: name.to_string() });
        Ok(())
    }

    /// Records that the hexside between `a` and `b` belongs to a named feature.
    pub fn add_named(&mut self, name: &str, a: Hex, b: Hex) {
        self.named.entry(name.to_string()).or_default().push((a, b));
    }

    /// Puts a hex in a county.
    ///
    /// # Errors
    /// The hex is off the grid.
    pub fn set_county(&mut self, hex: Hex, county: &str) -> Result<(), MapError> {
        let i = self.index(hex).ok_or(MapError::OffMap(hex))?;
        let c = match self.county_names.iter().position(|n| n == county) {
            Some(c) => c,
            None => {
                self.county_names.push(county.to_string());
                self.county_names.len() - 1
            }
        };
        self.county[i] = Some(c as u8);
        Ok(())
    }
}

fn flip_ridge(f: Hexside) -> Hexside {
    let up_first = f.contains(Hexside::RIDGE_UP_FIRST);
    let up_second = f.contains(Hexside::RIDGE_UP_SECOND);
    let mut out = Hexside::NONE;
    for (_, single) in Hexside::NAMED {
        if f.contains(*single) && !Hexside::RIDGE.contains(*single) {
            out |= *single;
        }
    }
    if up_first {
        out |= Hexside::RIDGE_UP_SECOND;
    }
    if up_second {
        out |= Hexside::RIDGE_UP_FIRST;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(s: &str) -> Hex {
        s.parse().expect("test hex")
    }

    fn small() -> Map {
        let mut m = Map::new("t", "test", (1, 4), 4, 3);
        for c in 1..=4 {
            for r in 1..=m.rows_in(c) {
                m.set_terrain(Hex::new(c, r), Terrain::Clear).expect("in grid");
            }
        }
        m
    }

    #[test]
    fn hexsides_are_shared_by_both_hexes() {
        let mut m = small();
        m.add_hexside(h("0202"), h("0302"), Hexside::ROAD | Hexside::CREEK).expect("adjacent");
        assert!(m.hexside(h("0302"), h("0202")).contains(Hexside::ROAD | Hexside::CREEK));
        assert!(m.hexside(h("0202"), h("0201")).is_empty());
        assert_eq!(
            m.add_hexside(h("0101"), h("0303"), Hexside::ROAD),
            Err(MapError::NotAdjacent(h("0101"), h("0303")))
        );
    }

    #[test]
    fn ridges_know_their_uphill_side() {
        let mut m = small();
        m.set_ridge(h("0202"), h("0302")).expect("adjacent");
        assert_eq!(m.ridge(h("0302"), h("0202")), Ridge::Up);
        assert_eq!(m.ridge(h("0202"), h("0302")), Ridge::Down);
        m.set_ridge(h("0203"), h("0103")).expect("adjacent");
        assert_eq!(m.ridge(h("0103"), h("0203")), Ridge::Up);
        assert_eq!(m.ridge(h("0203"), h("0103")), Ridge::Down);
    }

    #[test]
    fn odd_q_grids_from_row_zero_index_and_share_hexsides() {
        let grid = Grid {
            cols: (10, 13),
            first_row: 0,
            last_row_odd: 3,
            last_row_even: 3,
            parity: Parity::OddQ,
            orientation: Orientation::ColumnsEast,
            key: TerrainKey::Tactical,
        };
        let mut m = Map::with_grid("p", "p", grid);
        for c in 10..=13 {
            for r in 0..=3 {
                m.set_tactical(Hex::new(c, r), TacticalTerrain::Clear).expect("grid");
            }
        }
        assert_eq!(m.hexes().count(), 16);
        assert!(m.contains(h("1000")) && !m.contains(h("1004")) && m.terrain(h("1000")).is_none());
        for hex in m.hexes() {
            assert_eq!(m.hex_at(m.index(hex).expect("indexed")), hex);
        }
        // Odd column 11 is the lower one: 1101 neighbours 1001 and 1002, not 1000.
        m.add_hexside(h("1101"), h("1002"), Hexside::SLOPE).expect("adjacent on odd-q");
        assert!(m.hexside(h("1002"), h("1101")).contains(Hexside::SLOPE));
        assert_eq!(
            m.add_hexside(h("1101"), h("1000"), Hexside::SLOPE),
            Err(MapError::NotAdjacent(h("1101"), h("1000")))
        );
        assert_eq!(m.distance(h("1000"), h("1303")), 5);
        m.set_elevation(h("1000"), 4).expect("grid");
        assert_eq!((m.elevation(h("1000")), m.elevation(h("1001"))), (Some(4), None));
    }

    #[test]
    fn grid_rows_follow_column_parity() {
        let m = small();
        assert!(m.contains(h("0104")) && !m.contains(h("0204")));
        assert_eq!(m.hexes().count(), 4 + 3 + 4 + 3);
        for hex in m.hexes() {
            assert_eq!(m.hex_at(m.index(hex).expect("indexed")), hex);
        }
    }
}
