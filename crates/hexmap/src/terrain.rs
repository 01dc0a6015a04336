//! What a hex is made of (major terrain) and what lies along its six edges (hexside features).
//!
//! GCACW 2.3: every land hex has one major terrain; roads, rivers, ridges and the like are
//! properties of the hexside a unit crosses. The tactical series have their own hex terrain
//! ([`TacticalTerrain`], Blind Swords EX 2.10) and an elevation level per hex; a map file says
//! which [`TerrainKey`] its terrain codes follow, so one series' terrain never reaches the other's
//! rules (a tactical map has no [`Terrain`] and a GCACW map no [`TacticalTerrain`]).

use std::fmt;

/// Major terrain of a hex (GCACW 2.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Terrain {
    /// Clear.
    Clear,
    /// Rolling.
    Rolling,
    /// Rough.
    Rough,
    /// Woods: every hexside of a woods hex is a woods hexside.
    Woods,
    /// City (e.g. Nashville).
    City,
    /// Swamp: entered and left only across a road, pike or railroad hexside.
    Swamp,
    /// Provisional swamp: rough, but swamp in rain turns.
    ProvisionalSwamp,
    /// Hill.
    Hill,
    /// Mountain: entered and left only across a road, pike, trail or railroad hexside.
    Mountain,
    /// Water: no unit may enter.
    Water,
}

impl Terrain {
    /// Every terrain, in the order of the map file's legend.
    pub const ALL: [Terrain; 10] = [
        Terrain::Clear,
        Terrain::Rolling,
        Terrain::Rough,
        Terrain::Woods,
        Terrain::City,
        Terrain::Swamp,
        Terrain::ProvisionalSwamp,
        Terrain::Hill,
        Terrain::Mountain,
        Terrain::Water,
    ];

    /// The one-character code used in map files.
    #[must_use]
    pub const fn code(self) -> char {
        match self {
            Terrain::Clear => '.',
            Terrain::Rolling => 'o',
            Terrain::Rough => 'r',
            Terrain::Woods => 'w',
            Terrain::City => 'C',
            Terrain::Swamp => 's',
            Terrain::ProvisionalSwamp => 'p',
            Terrain::Hill => 'h',
            Terrain::Mountain => 'm',
            Terrain::Water => '~',
        }
    }

    /// The terrain for a map-file character.
    #[must_use]
    pub fn from_code(c: char) -> Option<Terrain> {
        Terrain::ALL.into_iter().find(|t| t.code() == c)
    }

    /// The name players use.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Terrain::Clear => "clear",
            Terrain::Rolling => "rolling",
            Terrain::Rough => "rough",
            Terrain::Woods => "woods",
            Terrain::City => "city",
            Terrain::Swamp => "swamp",
            Terrain::ProvisionalSwamp => "provisional swamp",
            Terrain::Hill => "hill",
            Terrain::Mountain => "mountain",
            Terrain::Water => "water",
        }
    }
}

impl fmt::Display for Terrain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which terrain legend a map's `[terrain]` codes follow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TerrainKey {
    /// GCACW major terrain ([`Terrain`]).
    #[default]
    Gcacw,
    /// Tactical terrain ([`TacticalTerrain`]) with an elevation level per hex.
    Tactical,
}

impl TerrainKey {
    /// The map-file word.
    #[must_use]
    pub const fn word(self) -> &'static str {
        match self {
            TerrainKey::Gcacw => "gcacw",
            TerrainKey::Tactical => "tactical",
        }
    }
}

/// The one terrain of a hex on a tactical map (Blind Swords EX 2.10b: one terrain per hex; a
/// graphic covering at least half the hex makes the whole hex that terrain).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TacticalTerrain {
    /// Clear (EX 2.10e).
    Clear,
    /// Woods (EX 2.10g).
    Woods,
    /// Corn field (EX 2.10f).
    Cornfield,
    /// Orchard (EX 2.10j).
    Orchard,
    /// A town hex of several buildings (EX 2.10c: on the Perryville map, Perryville itself).
    Town,
    /// A single building (EX 2.10c: informational only).
    Building,
    /// A dry stream running through the hex (EX 2.10i: informational only).
    DryStream,
}

impl TacticalTerrain {
    /// Every tactical terrain, in the order of the map file's legend.
    pub const ALL: [TacticalTerrain; 7] = [
        TacticalTerrain::Clear,
        TacticalTerrain::Woods,
        TacticalTerrain::Cornfield,
        TacticalTerrain::Orchard,
        TacticalTerrain::Town,
        TacticalTerrain::Building,
        TacticalTerrain::DryStream,
    ];

    /// The one-character code used in map files.
    #[must_use]
    pub const fn code(self) -> char {
        match self {
            TacticalTerrain::Clear => '.',
            TacticalTerrain::Woods => 'w',
            TacticalTerrain::Cornfield => 'c',
            TacticalTerrain::Orchard => 'o',
            TacticalTerrain::Town => 'T',
            TacticalTerrain::Building => 'b',
            TacticalTerrain::DryStream => 's',
        }
    }

    /// The terrain for a map-file character.
    #[must_use]
    pub fn from_code(c: char) -> Option<TacticalTerrain> {
        TacticalTerrain::ALL.into_iter().find(|t| t.code() == c)
    }

    /// The name players use.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            TacticalTerrain::Clear => "clear",
            TacticalTerrain::Woods => "woods",
            TacticalTerrain::Cornfield => "corn field",
            TacticalTerrain::Orchard => "orchard",
            TacticalTerrain::Town => "town",
            TacticalTerrain::Building => "building",
            TacticalTerrain::DryStream => "dry stream",
        }
    }
}

impl fmt::Display for TacticalTerrain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of hexside features, as bits. A route (road, pike, trail, railroad) on a hexside means
/// the route crosses it from one hex centre to the other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hexside(u32);

macro_rules! features {
    ($( $(#[$doc:meta])* $name:ident = $bit:expr, $word:literal; )*) => {
        impl Hexside {
            $( $(#[$doc])* pub const $name: Hexside = Hexside(1 << $bit); )*
            /// Every single feature with its map-file word.
            pub const NAMED: &'static [(&'static str, Hexside)] = &[ $( ($word, Hexside::$name), )* ];
        }
    };
}

features! {
    /// A road crosses the hexside.
    ROAD = 0, "road";
    /// A pike crosses the hexside.
    PIKE = 1, "pike";
    /// A trail crosses the hexside.
    TRAIL = 2, "trail";
    /// A railroad crosses the hexside.
    RAILROAD = 3, "railroad";
    /// An unfinished railroad crosses the hexside (moves as a road, GCACW 6.1).
    UNFINISHED_RAILROAD = 4, "unfinished-railroad";
    /// The hexside is a major river.
    MAJOR_RIVER = 5, "major-river";
    /// The hexside is a minor river.
    MINOR_RIVER = 6, "minor-river";
    /// The hexside is a creek.
    CREEK = 7, "creek";
    /// A ford crosses the river.
    FORD = 8, "ford";
    /// A permanent bridge crosses the river.
    BRIDGE = 9, "bridge";
    /// A dam crosses the river.
    DAM = 10, "dam";
    /// A ferry crosses the river.
    FERRY = 11, "ferry";
    /// An all-water hexside (no crossing, no ZOC).
    ALL_WATER = 12, "all-water";
    /// A county border.
    COUNTY_BORDER = 13, "county-border";
    /// A ridge whose upper side is the hexside's first hex (see [`crate::Map::ridge_up_from`]).
    RIDGE_UP_FIRST = 14, "ridge-up-first";
    /// A ridge whose upper side is the hexside's second hex.
    RIDGE_UP_SECOND = 15, "ridge-up-second";
    /// A stone fence along the hexside (tactical maps, Blind Swords EX 2.10d).
    STONE_FENCE = 16, "stone-fence";
    /// A wood fence along the hexside (tactical maps, EX 2.10d).
    WOOD_FENCE = 17, "wood-fence";
    /// A slope hexside (tactical maps, EX 2.10m); which side is upslope comes from the elevations.
    SLOPE = 18, "slope";
    /// A steep slope hexside (tactical maps, EX 2.10n).
    STEEP_SLOPE = 19, "steep-slope";
    /// A river along the hexside on a tactical map (EX 2.10k, the Chaplin River).
    TACTICAL_RIVER = 20, "river";
}

impl Hexside {
    /// No features.
    pub const NONE: Hexside = Hexside(0);
    /// Any route along which movement pays the route cost (GCACW 6.1): road, pike, trail,
    /// railroad or unfinished railroad.
    pub const ANY_ROUTE: Hexside = Hexside(0b1_1111);
    /// Road, pike, railroad or unfinished railroad: the routes that open a swamp (GCACW 6.1).
    pub const ROAD_PIKE_RR: Hexside = Hexside(0b1_1011);
    /// A major or minor river (GCACW).
    pub const RIVER: Hexside = Hexside((1 << 5) | (1 << 6));
    /// A way across a river: ford, bridge, dam or ferry.
    pub const CROSSING: Hexside = Hexside((1 << 8) | (1 << 9) | (1 << 10) | (1 << 11));
    /// Either ridge bit.
    pub const RIDGE: Hexside = Hexside((1 << 14) | (1 << 15));
    /// Any river a ford or bridge may cross: major, minor (GCACW) or a tactical river.
    pub const ANY_RIVER: Hexside = Hexside((1 << 5) | (1 << 6) | (1 << 20));
    /// The features only tactical maps use: fences, slopes and the tactical river.
    pub const TACTICAL_ONLY: Hexside = Hexside(0b1_1111 << 16);
    /// The features only GCACW maps use: pike, railroads, major and minor rivers, creek, dam,
    /// ferry, all-water, county border and ridges.
    pub const GCACW_ONLY: Hexside = Hexside(
        (1 << 1)
            | (1 << 3)
            | (1 << 4)
            | (1 << 5)
            | (1 << 6)
            | (1 << 7)
            | (1 << 10)
            | (1 << 11)
            | (1 << 12)
            | (1 << 13)
            | (3 << 14),
    );
    /// Either slope.
    pub const ANY_SLOPE: Hexside = Hexside((1 << 18) | (1 << 19));
    /// Either fence.
    pub const FENCE: Hexside = Hexside((1 << 16) | (1 << 17));

    /// Whether every feature in `other` is present.
    #[must_use]
    pub const fn contains(self, other: Hexside) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether any feature in `other` is present.
    #[must_use]
    pub const fn intersects(self, other: Hexside) -> bool {
        self.0 & other.0 != 0
    }

    /// Both sets together.
    #[must_use]
    pub const fn union(self, other: Hexside) -> Hexside {
        Hexside(self.0 | other.0)
    }

    /// Whether no feature is present.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The feature for a map-file word.
    #[must_use]
    pub fn from_word(word: &str) -> Option<Hexside> {
        Hexside::NAMED.iter().find(|(w, _)| *w == word).map(|(_, f)| *f)
    }

    /// The words of the features present, for display.
    pub fn words(self) -> impl Iterator<Item = &'static str> {
        Hexside::NAMED.iter().filter(move |(_, f)| self.contains(*f)).map(|(w, _)| *w)
    }
}

impl std::ops::BitOr for Hexside {
    type Output = Hexside;
    fn bitor(self, rhs: Hexside) -> Hexside {
        self.union(rhs)
    }
}

impl std::ops::BitOrAssign for Hexside {
    fn bitor_assign(&mut self, rhs: Hexside) {
        *self = self.union(rhs);
    }
}

/// Things inside a hex that do not change its major terrain (GCACW 2.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HexFeature {
    /// A village or town.
    Village,
    /// A railroad station (a Burn RR Station target, GCACW 5.4).
    Station,
    /// A Union redoubt (HSN-B 9.0).
    Redoubt,
    /// A printed Union fort of class A (HSN-A 8.0).
    FortA,
    /// A printed Union fort of class B (HSN-A 8.0).
    FortB,
    /// A landing.
    Landing,
}

impl HexFeature {
    /// Map-file word.
    #[must_use]
    pub const fn word(self) -> &'static str {
        match self {
            HexFeature::Village => "village",
            HexFeature::Station => "station",
            HexFeature::Redoubt => "redoubt",
            HexFeature::FortA => "fort-a",
            HexFeature::FortB => "fort-b",
            HexFeature::Landing => "landing",
        }
    }

    /// The feature for a map-file word.
    #[must_use]
    pub fn from_word(word: &str) -> Option<HexFeature> {
        [
            HexFeature::Village,
            HexFeature::Station,
            HexFeature::Redoubt,
            HexFeature::FortA,
            HexFeature::FortB,
            HexFeature::Landing,
        ]
        .into_iter()
        .find(|f| f.word() == word)
    }
}
