//! Hex maps for Caisson: coordinates, terrain, hexside features, the map file format and an SVG
//! renderer.
//!
//! Rules crates read a [`Map`]; they never parse map files themselves. Architecture invariant:
//! this crate knows nothing of units, sides or rules.

#![warn(missing_docs)]

pub mod algorithms;
pub mod format;
pub mod hex;
pub mod map;
pub mod render;
pub mod terrain;

#[doc(inline)]
pub use hex::{Direction, Hex, HexParseError, HexRange, Parity};
#[doc(inline)]
pub use map::{Grid, Map, MapError, Orientation, Place, Ridge};
#[doc(inline)]
pub use terrain::{HexFeature, Hexside, TacticalTerrain, Terrain, TerrainKey};
