//! [SR 2.1, 2.4; EX 2.1, 2.3, 7.3] The counters, command hierarchy and chits of Grand Havoc:
//! Perryville, loaded from `data/perryville/{counters.csv,commands.toml,chits.toml}`.
//!
//! Printed values only. The text prints none of them (digest ): strengths come from the
//! historical order of battle at the scale of EX 2.9, the rest is reconstructed, and every value
//! names its source so that [`Catalog::reconstructed`] can list what a player who owns the counters
//! may want to replace.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use caisson_kernel::data::{parse_csv, parse_toml, DataDir, DataError};
use serde::Deserialize;

/// A player's side (SR 2.1: grey Confederate, blue Union).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Side {
    /// The Union player (USA).
    Union,
    /// The Confederate player (CSA).
    Confederate,
}

impl Side {
    /// Both sides, Union first.
    pub const BOTH: [Side; 2] = [Side::Union, Side::Confederate];
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::Union => "Union",
            Side::Confederate => "Confederate",
        })
    }
}

/// A unit's type (SR 2.1; EX 2.1 horse artillery).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum UnitType {
    /// An infantry regiment or battalion.
    Infantry,
    /// A cavalry regiment (EX 10.9: no mounted or dismounted sides in Perryville).
    Cavalry,
    /// A foot battery or section (6 MPs, EX 6.0).
    Artillery,
    /// A horse battery or section (9 MPs, cavalry withdrawal; EX 2.1).
    HorseArtillery,
}

impl UnitType {
    /// Whether the unit moves and fires in the Artillery Phase (SR 6.0, EX 6.0).
    #[must_use]
    pub const fn is_artillery(self) -> bool {
        matches!(self, UnitType::Artillery | UnitType::HorseArtillery)
    }
}

/// The weapon type printed on a counter (SR 2.1, 9.1c). The text names `A`, `S` and `CC`; `R`
/// stands for the rifled arms the Weapon Ranges Table implies (ruling PO5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
pub enum Weapon {
    /// Rifled muskets, rifles, rifled guns.
    R,
    /// Smoothbores (EX 9.3 ix, 11.3c xv-xvi).
    S,
    /// Antique muskets: one hex at half strength (EX 2.1a).
    A,
    /// Close-combat arms: Defensive Fire only (SR 9.1c).
    CC,
}

/// Strength Points, counted in halves: "C" (cadre) is half an SP (SR 2.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct Sp(u8);

impl Sp {
    /// Cadre strength, half an SP.
    pub const CADRE: Sp = Sp(1);

    /// Whole Strength Points.
    #[must_use]
    pub const fn whole(n: u8) -> Sp {
        Sp(n * 2)
    }

    /// The value in half SPs.
    #[must_use]
    pub const fn halves(self) -> u8 {
        self.0
    }
}

impl fmt::Display for Sp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 == 1 {
            f.write_str("C")
        } else {
            write!(f, "{}", self.0 / 2)
        }
    }
}

impl std::str::FromStr for Sp {
    type Err = String;

    fn from_str(s: &str) -> Result<Sp, String> {
        if s == "C" {
            return Ok(Sp::CADRE);
        }
        match s.parse::<u8>() {
            Ok(n) if (1..=60).contains(&n) => Ok(Sp::whole(n)),
            _ => Err(format!("`{s}` is not a strength (1-60, or C for cadre)")),
        }
    }
}

/// One side of a counter: its Strength Points and Cohesion Rating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Face {
    /// Printed Strength Points.
    pub sp: Sp,
    /// Printed Cohesion Rating, 0-6 (SR 2.1).
    pub cr: u8,
}

/// Where a unit's printed values come from.
#[derive(Clone, Debug, serde::Serialize)]
pub struct UnitSources {
    /// The Fresh side's SP.
    pub strength: String,
    /// The weapon type.
    pub weapon: String,
    /// The Fresh side's CR.
    pub cohesion: String,
    /// The Battleworn side's values.
    pub battleworn: String,
}

/// A unit counter's printed values (SR 2.1).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Unit {
    /// Unique id, e.g. `u-21wi`.
    pub id: String,
    /// Printed name, e.g. `21WI`.
    pub name: String,
    /// Side.
    pub side: Side,
    /// Type.
    pub ty: UnitType,
    /// Brigade id; `None` for division artillery (EX 2.1).
    pub brigade: Option<String>,
    /// Division id; `None` for an independent brigade.
    pub division: Option<String>,
    /// Wing or corps id.
    pub wing: String,
    /// The Fresh side; `None` for a Fragile unit, which has only a Battleworn side (SR 2.1).
    pub fresh: Option<Face>,
    /// The Battleworn side.
    pub worn: Face,
    /// Weapon type.
    pub weapon: Weapon,
    /// Sources of the values.
    pub sources: UnitSources,
}

impl Unit {
    /// A Fragile unit: only a Battleworn side, eliminated when it would be Broken (SR 2.1).
    #[must_use]
    pub const fn fragile(&self) -> bool {
        self.fresh.is_none()
    }

    /// The side the unit starts on: Fresh, or Battleworn for a Fragile unit.
    #[must_use]
    pub fn starting(&self) -> Face {
        self.fresh.unwrap_or(self.worn)
    }

    /// Whether any printed value is reconstructed.
    #[must_use]
    pub fn reconstructed(&self) -> bool {
        let s = &self.sources;
        [&s.strength, &s.weapon, &s.cohesion, &s.battleworn].iter().any(|x| x.starts_with("reconstructed"))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitRow {
    id: String,
    name: String,
    side: Side,
    #[serde(rename = "type")]
    ty: UnitType,
    brigade: String,
    division: String,
    wing: String,
    fr_sp: String,
    fr_cr: Option<u8>,
    bw_sp: String,
    bw_cr: u8,
    weapon: Weapon,
    strength_source: String,
    weapon_source: String,
    cohesion_source: String,
    battleworn_source: String,
}

/// A wing (Confederate) or corps (Union).
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Wing {
    /// Id.
    pub id: String,
    /// Side.
    pub side: Side,
    /// Name.
    pub name: String,
    /// Commander.
    pub leader: String,
    /// Source.
    pub source: String,
}

/// A division with its Division Activation Chit (EX 7.3d).
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Division {
    /// Id (also the id of its chit).
    pub id: String,
    /// Side.
    pub side: Side,
    /// Wing or corps id.
    pub wing: String,
    /// Commander.
    pub leader: String,
    /// Command Rating on the chit (SR 2.4).
    pub rating: u8,
    /// The leader who replaces him on the casualty chit (SR 2.4, EX 7.3b).
    pub casualty_leader: String,
    /// Command Rating on the casualty chit.
    pub casualty_rating: u8,
    /// Where the division comes from.
    pub source: String,
    /// Where the ratings come from.
    pub rating_source: String,
    /// Whether the division's own artillery is released with its first released brigade (EX 14.2c).
    #[serde(default)]
    pub artillery_released_with_brigade: bool,
    /// Source of that rule.
    #[serde(default)]
    pub artillery_source: Option<String>,
}

/// A brigade: in a division with an Attack Coordination Rating (EX 2.3, 8.2a), or an independent
/// cavalry brigade with its own chit and activation number (EX 7.3e).
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Brigade {
    /// Id.
    pub id: String,
    /// Side.
    pub side: Side,
    /// Division id; `None` for an independent cavalry brigade.
    #[serde(default)]
    pub division: Option<String>,
    /// Wing or corps id.
    pub wing: String,
    /// Commander.
    pub leader: String,
    /// Attack Coordination Rating (brigades with a Brigade Activation Status marker).
    #[serde(default)]
    pub coordination: Option<u8>,
    /// Activation number in the circle of its chit (independent cavalry brigades).
    #[serde(default)]
    pub activation: Option<u8>,
    /// The leader on the casualty chit (independent cavalry brigades).
    #[serde(default)]
    pub casualty_leader: Option<String>,
    /// Activation number on the casualty chit.
    #[serde(default)]
    pub casualty_rating: Option<u8>,
    /// Where the brigade comes from.
    pub source: String,
    /// Where its rating comes from.
    pub rating_source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CommandsFile {
    #[allow(dead_code)]
    source: String,
    reconstructed: String,
    wing: Vec<Wing>,
    division: Vec<Division>,
    brigade: Vec<Brigade>,
}

/// Who a chit belongs to: a side, or both (the Wild chits, SR 2.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Owner {
    /// A Union chit.
    Union,
    /// A Confederate chit.
    Confederate,
    /// A neutral (Wild) chit.
    Neutral,
}

impl Owner {
    /// The side, if any.
    #[must_use]
    pub const fn side(self) -> Option<Side> {
        match self {
            Owner::Union => Some(Side::Union),
            Owner::Confederate => Some(Side::Confederate),
            Owner::Neutral => None,
        }
    }
}

/// The kinds of chit (SR 2.4; EX 7.3c-e).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChitKind {
    /// Commander in Chief (A. McCook, EX 7.3c).
    Cic,
    /// Division Activation Chit (EX 7.3d).
    Division,
    /// Brigade Activation Chit of an independent cavalry brigade (EX 7.3e).
    Brigade,
    /// Event chit (SR 7.3).
    Event,
    /// Wild chit: Fortunes of War or Fog of War (SR 7.3a-b).
    Wild,
}

/// One chit.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Chit {
    /// Id.
    pub id: String,
    /// Owner.
    pub side: Owner,
    /// Kind.
    pub kind: ChitKind,
    /// Printed name.
    pub name: String,
    /// The wing, division or brigade it activates (activation chits).
    #[serde(default)]
    pub command: Option<String>,
    /// Removed from play once used (Hidden Enemy, EX 5.2).
    #[serde(default)]
    pub one_use: bool,
    /// Source.
    pub source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ChitsFile {
    #[allow(dead_code)]
    source: String,
    reconstructed: String,
    chit: Vec<Chit>,
}

/// A reconstructed part of the data, for players who own the game to check or replace.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Reconstruction {
    /// The data file.
    pub file: String,
    /// What is reconstructed and why.
    pub what: String,
}

/// Every counter, command and chit of the game.
#[derive(Clone, Debug)]
pub struct Catalog {
    /// Units in file order.
    pub units: Vec<Unit>,
    /// Wings and corps.
    pub wings: Vec<Wing>,
    /// Divisions.
    pub divisions: Vec<Division>,
    /// Brigades.
    pub brigades: Vec<Brigade>,
    /// Chits.
    pub chits: Vec<Chit>,
    by_id: BTreeMap<String, usize>,
    reconstructed: Vec<Reconstruction>,
}

/// The byte offset of a record in a TOML file: where its `id = "…"` line is.
fn record_at(text: &str, id: &str) -> usize {
    text.find(&format!("id = \"{id}\"")).unwrap_or(0)
}

fn rating_ok(r: u8) -> bool {
    (1..=6).contains(&r)
}

impl Catalog {
    /// Loads `counters.csv`, `commands.toml` and `chits.toml` from a game's folder
    /// (`DataDir::builtin().join("perryville")`).
    ///
    /// # Errors
    /// A file missing or invalid, naming file, line and field.
    pub fn load(dir: &DataDir) -> Result<Catalog, DataError> {
        let (u, k, c) = (dir.join("counters.csv"), dir.join("commands.toml"), dir.join("chits.toml"));
        Catalog::parse((&u.read()?, &u.display()), (&k.read()?, &k.display()), (&c.read()?, &c.display()))
    }

    /// Parses the three files, each given as (text, file name).
    ///
    /// # Errors
    /// Malformed rows, duplicate ids, unknown or inconsistent commands, values out of range.
    pub fn parse(counters: (&str, &str), commands: (&str, &str), chits: (&str, &str)) -> Result<Catalog, DataError> {
        let (ktext, kfile) = commands;
        let cmd: CommandsFile = parse_toml(ktext, kfile)?;
        let mut ids = BTreeSet::new();
        let kerr = |id: &str, m: String| DataError::at(kfile, ktext, record_at(ktext, id), m);
        for w in &cmd.wing {
            if !ids.insert(w.id.clone()) {
                return Err(kerr(&w.id, format!("field `id`: duplicate command id `{}`", w.id)));
            }
        }
        for d in &cmd.division {
            if !ids.insert(d.id.clone()) {
                return Err(kerr(&d.id, format!("field `id`: duplicate command id `{}`", d.id)));
            }
            if !cmd.wing.iter().any(|w| w.id == d.wing && w.side == d.side) {
                return Err(kerr(&d.id, format!("division `{}`: field `wing`: no {} wing `{}`", d.id, d.side, d.wing)));
            }
            if !rating_ok(d.rating) || !rating_ok(d.casualty_rating) {
                return Err(kerr(&d.id, format!("division `{}`: field `rating`: ratings run 1-6", d.id)));
            }
        }
        for b in &cmd.brigade {
            if !ids.insert(b.id.clone()) {
                return Err(kerr(&b.id, format!("field `id`: duplicate command id `{}`", b.id)));
            }
            if !cmd.wing.iter().any(|w| w.id == b.wing && w.side == b.side) {
                return Err(kerr(&b.id, format!("brigade `{}`: field `wing`: no {} wing `{}`", b.id, b.side, b.wing)));
            }
            match &b.division {
                Some(d) => {
                    let Some(div) = cmd.division.iter().find(|x| &x.id == d && x.side == b.side) else {
                        return Err(kerr(
                            &b.id,
                            format!("brigade `{}`: field `division`: no {} division `{d}`", b.id, b.side),
                        ));
                    };
                    if div.wing != b.wing {
                        return Err(kerr(
                            &b.id,
                            format!(
                                "brigade `{}`: field `wing`: `{}` but division `{d}` is in `{}`",
                                b.id, b.wing, div.wing
                            ),
                        ));
                    }
                    if !b.coordination.is_some_and(rating_ok) || b.activation.is_some() {
                        return Err(kerr(
                            &b.id,
                            format!("brigade `{}`: field `coordination`: a brigade of a division has an Attack Coordination Rating 1-6 and no activation number (EX 2.3, 7.3e)", b.id),
                        ));
                    }
                }
                None => {
                    if !b.activation.is_some_and(rating_ok) || b.coordination.is_some() {
                        return Err(kerr(
                            &b.id,
                            format!("brigade `{}`: field `activation`: an independent brigade has an activation number 1-6 and no Attack Coordination Rating (EX 7.3e)", b.id),
                        ));
                    }
                }
            }
        }

        let (ctext, cfile) = counters;
        let mut units = Vec::new();
        let mut by_id = BTreeMap::new();
        for (line, row) in parse_csv::<UnitRow>(ctext, cfile)? {
            let at = |m: String| DataError::Invalid { file: cfile.to_string(), line: Some(line), message: m };
            if by_id.insert(row.id.clone(), units.len()).is_some() {
                return Err(at(format!("field `id`: duplicate unit id `{}`", row.id)));
            }
            let opt = |s: &str| (!s.is_empty()).then(|| s.to_string());
            let (brigade, division) = (opt(&row.brigade), opt(&row.division));
            match &brigade {
                Some(b) => {
                    let Some(brig) = cmd.brigade.iter().find(|x| &x.id == b && x.side == row.side) else {
                        return Err(at(format!("field `brigade`: no {} brigade `{b}` in {kfile}", row.side)));
                    };
                    if brig.division != division {
                        return Err(at(format!(
                            "field `division`: `{}` but brigade `{b}` is in `{}`",
                            row.division,
                            brig.division.as_deref().unwrap_or("no division")
                        )));
                    }
                    if brig.wing != row.wing {
                        return Err(at(format!(
                            "field `wing`: `{}` but brigade `{b}` is in `{}`",
                            row.wing, brig.wing
                        )));
                    }
                }
                None => {
                    // EX 2.1: only artillery may belong to a division directly.
                    let Some(div) =
                        cmd.division.iter().find(|x| Some(&x.id) == division.as_ref() && x.side == row.side)
                    else {
                        return Err(at(
                            "field `brigade`: a unit needs a brigade, or a division for its artillery".into()
                        ));
                    };
                    if !row.ty.is_artillery() {
                        return Err(at(format!(
                            "field `brigade`: only artillery belongs to a division directly (EX 2.1), not {:?}",
                            row.ty
                        )));
                    }
                    if div.wing != row.wing {
                        return Err(at(format!(
                            "field `wing`: `{}` but division `{}` is in `{}`",
                            row.wing, div.id, div.wing
                        )));
                    }
                }
            }
            let worn_sp: Sp = row.bw_sp.parse().map_err(|e| at(format!("field `bw_sp`: {e}")))?;
            let fresh = match (row.fr_sp.as_str(), row.fr_cr) {
                ("", None) => None,
                (sp, Some(cr)) if !sp.is_empty() => {
                    Some(Face { sp: sp.parse().map_err(|e| at(format!("field `fr_sp`: {e}")))?, cr })
                }
                _ => return Err(at("field `fr_sp`: give both FR values, or neither for a Fragile unit".into())),
            };
            let worn = Face { sp: worn_sp, cr: row.bw_cr };
            for (field, cr) in [("fr_cr", fresh.map(|f| f.cr)), ("bw_cr", Some(worn.cr))] {
                if cr.is_some_and(|c| c > 6) {
                    return Err(at(format!("field `{field}`: a Cohesion Rating runs 0-6 (SR 2.1)")));
                }
            }
            if let Some(f) = fresh {
                if worn.sp > f.sp || worn.cr > f.cr {
                    return Err(at("field `bw_sp`: the Battleworn side is never stronger than the Fresh side".into()));
                }
            }
            for (field, s) in [
                ("strength_source", &row.strength_source),
                ("weapon_source", &row.weapon_source),
                ("cohesion_source", &row.cohesion_source),
                ("battleworn_source", &row.battleworn_source),
            ] {
                if s.is_empty() {
                    return Err(at(format!("field `{field}`: every value names its source")));
                }
            }
            units.push(Unit {
                id: row.id,
                name: row.name,
                side: row.side,
                ty: row.ty,
                brigade,
                division,
                wing: row.wing,
                fresh,
                worn,
                weapon: row.weapon,
                sources: UnitSources {
                    strength: row.strength_source,
                    weapon: row.weapon_source,
                    cohesion: row.cohesion_source,
                    battleworn: row.battleworn_source,
                },
            });
        }

        let (htext, hfile) = chits;
        let chit_file: ChitsFile = parse_toml(htext, hfile)?;
        let mut chit_ids = BTreeSet::new();
        for c in &chit_file.chit {
            let herr = |m: String| DataError::at(hfile, htext, record_at(htext, &c.id), m);
            if !chit_ids.insert(c.id.as_str()) {
                return Err(herr(format!("field `id`: duplicate chit id `{}`", c.id)));
            }
            let side = c.side.side();
            let fits = match (c.kind, c.command.as_deref()) {
                (ChitKind::Cic, Some(w)) => cmd.wing.iter().any(|x| x.id == w && Some(x.side) == side),
                (ChitKind::Division, Some(d)) => cmd.division.iter().any(|x| x.id == d && Some(x.side) == side),
                (ChitKind::Brigade, Some(b)) => {
                    cmd.brigade.iter().any(|x| x.id == b && Some(x.side) == side && x.activation.is_some())
                }
                (ChitKind::Event, None) => side.is_some(),
                (ChitKind::Wild, None) => side.is_none(),
                _ => false,
            };
            if !fits {
                return Err(herr(format!(
                    "chit `{}`: field `command`: `{}` does not fit a {:?} chit owned by {:?} (a CIC chit names a wing, a division chit a division, a brigade chit an independent brigade of its side; event chits name none and belong to a side, wild chits name none and are neutral)",
                    c.id,
                    c.command.as_deref().unwrap_or("nothing"),
                    c.kind,
                    c.side,
                )));
            }
        }

        let mut reconstructed = Vec::new();
        let rec = |f: fn(&UnitSources) -> &String| {
            units.iter().filter(|u| f(&u.sources).starts_with("reconstructed")).count()
        };
        let counts = [
            ("strength", rec(|s| &s.strength)),
            ("weapon", rec(|s| &s.weapon)),
            ("cohesion", rec(|s| &s.cohesion)),
            ("battleworn side", rec(|s| &s.battleworn)),
        ];
        let parts: Vec<String> =
            counts.iter().filter(|(_, n)| *n > 0).map(|(what, n)| format!("{what} of {n}")).collect();
        if !parts.is_empty() {
            reconstructed.push(Reconstruction {
                file: cfile.to_string(),
                what: format!("reconstructed values among {} units: {}", units.len(), parts.join(", ")),
            });
        }
        for (file, why) in [(kfile, &cmd.reconstructed), (hfile, &chit_file.reconstructed)] {
            if !why.is_empty() {
                reconstructed.push(Reconstruction { file: file.to_string(), what: why.clone() });
            }
        }
        Ok(Catalog {
            units,
            wings: cmd.wing,
            divisions: cmd.division,
            brigades: cmd.brigade,
            chits: chit_file.chit,
            by_id,
            reconstructed,
        })
    }

    /// A unit by id.
    #[must_use]
    pub fn unit(&self, id: &str) -> Option<&Unit> {
        self.by_id.get(id).map(|&i| &self.units[i])
    }

    /// A brigade by id.
    #[must_use]
    pub fn brigade(&self, id: &str) -> Option<&Brigade> {
        self.brigades.iter().find(|b| b.id == id)
    }

    /// A division by id.
    #[must_use]
    pub fn division(&self, id: &str) -> Option<&Division> {
        self.divisions.iter().find(|d| d.id == id)
    }

    /// A chit by id.
    #[must_use]
    pub fn chit(&self, id: &str) -> Option<&Chit> {
        self.chits.iter().find(|c| c.id == id)
    }

    /// The units of a brigade, in file order.
    pub fn brigade_units<'a>(&'a self, brigade: &str) -> impl Iterator<Item = &'a Unit> + use<'a> {
        let brigade = brigade.to_string();
        self.units.iter().filter(move |u| u.brigade.as_deref() == Some(brigade.as_str()))
    }

    /// The reconstructed parts of the catalog (the counters' values, the ratings, the unnamed
    /// event chits), each with its file.
    #[must_use]
    pub fn reconstructed(&self) -> &[Reconstruction] {
        &self.reconstructed
    }
}
