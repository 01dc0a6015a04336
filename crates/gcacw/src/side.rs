//! The two sides of a GCACW game.

use std::fmt;

/// A player's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    /// The Union player.
    Union,
    /// The Confederate player.
    Confederate,
}

impl Side {
    /// Both sides, Union first (the Union transfers leaders first, GCACW 6.3).
    pub const BOTH: [Side; 2] = [Side::Union, Side::Confederate];

    /// The other side.
    #[must_use]
    pub const fn enemy(self) -> Side {
        match self {
            Side::Union => Side::Confederate,
            Side::Confederate => Side::Union,
        }
    }

    /// Lower-case name, as used in ids and data files.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Side::Union => "union",
            Side::Confederate => "confederate",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Union => "Union",
            Side::Confederate => "Confederate",
        })
    }
}
