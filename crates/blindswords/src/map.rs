//! [EX 2.10] The Perryville map: `data/perryville/map.txt`, read through the kernel's
//! [`DataDir`] into a [`caisson_hexmap::Map`], checked for what Blind Swords needs (a tactical
//! grid, every hex at a level 1–6), and drawn as an SVG.
//!
//! The map is a reconstruction (the printed map was not available: digest §6, A-12, A-13); the
//! file's header and `docs/rulings.md` ("Perryville map and line of sight") say what the rulebook
//! fixes and what is estimated, and [`Map::reconstructed`] with [`Map::source`] carry it at run
//! time. A player who owns the game can correct the file and load it with [`load`].

use std::ops::RangeInclusive;

use caisson_hexmap::format::{self, FormatError};
use caisson_hexmap::{Map, TerrainKey};
use caisson_kernel::data::{DataDir, DataError};

/// The maps this crate knows, by id (the folder under `data/`).
pub const MAP_IDS: &[&str] = &["perryville"];

/// [EX 2.10a] Every hex is at one of six levels, 1 (lowest) to 6.
pub const LEVELS: RangeInclusive<u8> = 1..=6;

/// Loads `<id>/map.txt` from a data folder laid out like the repository's `data/`.
///
/// # Errors
/// The file is missing or does not parse (file and line named by the map format), the grid is
/// not a tactical one, or a hex's level is outside 1–6 (naming the hex and the line of its
/// column in `[elevation]`).
pub fn load(root: &DataDir, id: &str) -> Result<Map, DataError> {
    let path = root.join(id).join("map.txt");
    let file = path.display();
    let text = path.read()?;
    let map = format::parse(&text, &file).map_err(|e| match e {
        FormatError::Invalid { line, message, .. } => {
            DataError::Invalid { file: file.clone(), line: Some(line), message }
        }
        FormatError::Io { .. } => DataError::invalid(&file, e.to_string()),
    })?;
    if map.grid().key != TerrainKey::Tactical {
        return Err(DataError::invalid(&file, "the `grid` line must say `tactical`: Blind Swords maps have levels"));
    }
    for hex in map.hexes() {
        let level = map.elevation(hex).unwrap_or(0);
        if !LEVELS.contains(&level) {
            return Err(DataError::Invalid {
                file,
                line: column_line(&text, "[elevation]", hex.col),
                message: format!("elevation: hex {hex} is at level {level}, but levels run 1–6 (EX 2.10a)"),
            });
        }
    }
    Ok(map)
}

/// The built-in map `id`.
///
/// # Errors
/// `id` is not a known map, or its built-in file is broken.
pub fn builtin(id: &str) -> Result<Map, String> {
    if !MAP_IDS.contains(&id) {
        return Err(format!("no map `{id}` (known: {})", MAP_IDS.join(", ")));
    }
    load(&DataDir::builtin(), id).map_err(|e| e.to_string())
}

/// A standalone SVG of the built-in map `id` (`caisson map render perryville`).
///
/// # Errors
/// As [`builtin`].
pub fn render_map_svg(id: &str) -> Result<String, String> {
    Ok(caisson_hexmap::render::svg(&builtin(id)?))
}

/// The 1-based line of column `col` in a section of a map file.
fn column_line(text: &str, section: &str, col: i16) -> Option<usize> {
    let start = text.lines().position(|l| l.trim() == section)?;
    let want = format!("{col:02}");
    text.lines()
        .enumerate()
        .skip(start + 1)
        .take_while(|(_, l)| !l.trim_start().starts_with('['))
        .find(|(_, l)| l.split_whitespace().next() == Some(want.as_str()))
        .map(|(i, _)| i + 1)
}
