//! Combat and Artillery values of the two sides (GCACW 7.2, 7.3, 9.0, 11.0; HSN-B 9.0; HSN-A 8.0).

use std::fmt;

use caisson_hexmap::{Hex, HexFeature};

use crate::catalog::CounterType;
use crate::charts::{Half, MaxSituation};
use crate::rules::Gcacw;
use crate::scenario::{Entrenchment, RuleKind};
use crate::state::State;
use crate::Side;

use super::Forts;

/// A Combat value counted in quarter points. Entrenchment multiplies a unit's value by 1.5 or 2.5
/// and fractions are kept (GCACW 9.0), so a disorganized ½ under an Abatis defends with ¾; the
/// Ratio Chart and the flank one-quarter test need the exact value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct Quarters(u32);

impl Quarters {
    /// Zero.
    pub const ZERO: Quarters = Quarters(0);

    /// `n` quarter points.
    #[must_use]
    pub const fn from_quarters(n: u32) -> Quarters {
        Quarters(n)
    }

    /// A value in half points, exactly.
    #[must_use]
    pub fn from_half(h: Half) -> Quarters {
        Quarters(u32::from(h.halves()) * 2)
    }

    /// The value in quarter points.
    #[must_use]
    pub const fn quarters(self) -> u32 {
        self.0
    }

    /// The value as a number (quarters are exact in binary floating point).
    #[must_use]
    pub fn to_f64(self) -> f64 {
        f64::from(self.0) / 4.0
    }
}

impl fmt::Display for Quarters {
    /// "16", "¾", "4½", "2¼".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.0 / 4;
        let frac = match self.0 % 4 {
            1 => "¼",
            2 => "½",
            3 => "¾",
            _ => "",
        };
        match (whole, frac) {
            (0, "") => f.write_str("0"),
            (0, q) => f.write_str(q),
            (w, q) => write!(f, "{w}{q}"),
        }
    }
}

/// The Combat value a unit attacks with (GCACW 7.2, 11.0): its current value, except that a
/// Demoralize-1 unit attacks with half of it rounded down to a whole number and a Demoralize-2
/// unit with 1; either attacks with ½ if its value is 1 or ½. Ruling: a Demoralize-1 unit whose
/// value is 1½ (a disorganized marker) would round down to 0; it attacks with ½, like the units
/// the rule's exception names.
#[must_use]
pub fn attack_value(rules: &Gcacw, state: &State, u: usize) -> Half {
    let cv = rules.combat_value(state, u);
    let halves = cv.halves();
    match state.units[u].demoralized {
        0 => cv,
        _ if halves <= 2 => Half::from_halves(1),
        1 => Half::from_halves((halves / 4 * 2).max(1)),
        _ => Half::whole(1),
    }
}

/// A unit's Artillery value in combat (GCACW 7.3, 11.0): the printed value, or the scenario's
/// in its place ([`artillery_override`]), or 0 while it is demoralized. Fatigue and organization
/// do not change it.
#[must_use]
pub fn artillery_value(rules: &Gcacw, state: &State, u: usize) -> u16 {
    if state.units[u].demoralized > 0 {
        0
    } else if let Some((v, _)) = artillery_override(rules, state, u) {
        u16::from(v)
    } else {
        // HSN-A 7.3: an Artillery marker from a detachment or attachment, else the printed value.
        u16::from(crate::substitute::artillery(rules, state, u))
    }
}

/// The Artillery value a scenario rule gives unit `u` now in place of its printed one, with the
/// rule's source (HSN Sc 3 and Sc 4 (b) Artillery Penalty, Sc 7 Confederate Artillery): the first
/// `artillery-override` rule whose side, type, size, exceptions and turns take the unit in.
/// Ruling: the value replaces the printed one whether higher or lower (Sc 7 gives 1 to divisions
/// printing 2; Stevenson-B prints 1 already, so nothing changes for it).
#[must_use]
pub fn artillery_override<'r>(rules: &'r Gcacw, state: &State, u: usize) -> Option<(u8, &'r str)> {
    let c = rules.unit_counter(state, u);
    rules.scenario().special_rule.iter().find_map(|r| match &r.kind {
        RuleKind::ArtilleryOverride { side, ty, size, except, turns, value }
            if *side == c.side
                && *ty == c.ty
                && size.as_ref().is_none_or(|s| *s == c.size)
                && !except.contains(&c.id)
                && (turns.is_empty() || turns.contains(&state.turn)) =>
        {
            Some((*value, r.source.as_str()))
        }
        _ => None,
    })
}

/// Intrinsic Combat and Artillery values of the undestroyed Union fort in a hex, if any
/// (HSN-A 8.0: class A 2 and 2, class B 1 and 1), with its class.
#[must_use]
pub fn fort_values(rules: &Gcacw, forts: &Forts, hex: Hex) -> Option<(u16, u16, &'static str)> {
    if !forts.undestroyed.contains(&hex) {
        return None;
    }
    let map = rules.map();
    if map.has_feature(hex, HexFeature::FortA) {
        Some((2, 2, "class A"))
    } else if map.has_feature(hex, HexFeature::FortB) {
        Some((1, 1, "class B"))
    } else {
        None
    }
}

/// Whether Union units in a hex get the benefits of a redoubt (HSN-B 9.0: only Union units, in
/// 1714, 4111 and 5504–5506; HSN-A 8.0: a destroyed fort is a Union redoubt, and unentrenched
/// Union units in an undestroyed fort are treated as in a redoubt for entrenchment).
#[must_use]
pub fn redoubt_for_entrenchment(rules: &Gcacw, forts: &Forts, side: Side, hex: Hex) -> bool {
    side == Side::Union
        && (rules.map().has_feature(hex, HexFeature::Redoubt)
            || forts.destroyed.contains(&hex)
            || fort_values(rules, forts, hex).is_some())
}

/// Whether defenders of `side` in a hex hold a redoubt for the flank rules (GCACW 7.4, 9.0): a
/// printed Union redoubt or a destroyed fort, held by Union units (HSN-B 9.0, HSN-A 8.0).
#[must_use]
pub fn redoubt_for_flanks(rules: &Gcacw, forts: &Forts, side: Side, hex: Hex) -> bool {
    side == Side::Union && (rules.map().has_feature(hex, HexFeature::Redoubt) || forts.destroyed.contains(&hex))
}

/// A defensive multiplier in halves: 2 = ×1, 3 = ×1.5, 4 = ×2, 5 = ×2.5, 6 = ×3 (GCACW 9.0,
/// 1864 markers).
const fn marker_multiplier(e: Entrenchment) -> u32 {
    match e {
        Entrenchment::Abatis | Entrenchment::BreastworksBuild => 3,
        Entrenchment::Breastworks | Entrenchment::FortBuild1 => 4,
        Entrenchment::FortBuild2 => 5,
        Entrenchment::FortComplete => 6,
    }
}

fn multiplier_text(m: u32) -> &'static str {
    match m {
        3 => "×1.5",
        4 => "×2",
        5 => "×2.5",
        6 => "×3",
        _ => "×1",
    }
}

/// One defending unit's values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefendingUnit {
    /// Unit index.
    pub unit: usize,
    /// Combat value before entrenchment (GCACW 7.2; demoralization does not lower it).
    pub cv: Half,
    /// Artillery value (0 when demoralized).
    pub artillery: u16,
    /// Multiplier in halves (2 = none).
    pub multiplier: u32,
    /// Where the multiplier comes from, e.g. "Breastworks ×2", "redoubt ×1.5".
    pub why: Option<String>,
}

/// The defending force of a hex, with its totals (GCACW 7.2, 7.3, 9.0).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Defence {
    /// Units in the hex.
    pub units: Vec<DefendingUnit>,
    /// Combat total before entrenchment and without the fort (the Combat Chart column, GCACW 7.5).
    pub cv: Half,
    /// Combat total with entrenchment and the fort's intrinsic value, capped by the Maximum
    /// Values (the ratio and the flank one-quarter test).
    pub cv_entrenched: Quarters,
    /// The same before the cap.
    pub cv_uncapped: Quarters,
    /// Which cap applied (GCACW 7.2; ruling A16: units are counted).
    pub situation: MaxSituation,
    /// Artillery total before entrenchment, the fort's value included (the 7.4 special cases).
    pub artillery_printed: u16,
    /// Artillery total with entrenchment (the hex sum multiplied, rounded up) plus the fort's.
    pub artillery: u16,
    /// The undestroyed fort in the hex: (Combat, Artillery, class).
    pub fort: Option<(u16, u16, &'static str)>,
}

/// The defence of `hex` against `attacker` (GCACW 7.2, 7.3, 9.0; HSN-B 9.0; HSN-A 8.0).
///
/// Entrenchment markers apply unit by unit; a unit without one in a redoubt it may use gets ×1.5,
/// and one with a marker there gets the better of the two. The Artillery values are multiplied
/// unit by unit and the hex sum rounded up (ruling: with mixed markers, each unit's value is
/// multiplied by its own factor before the sum is rounded). A fort's intrinsic values are added
/// after the multipliers and never multiplied (ruling A26). The cap counts units: "at least one
/// half entrenched" means at least half of the defending units have a marker or redoubt benefit
/// (ruling A16; redoubts are one of the four kinds of entrenchment, GCACW 9.0).
#[must_use]
pub fn defence(rules: &Gcacw, state: &State, hex: Hex, attacker: Side, forts: &Forts) -> Defence {
    let side = attacker.enemy();
    let redoubt = redoubt_for_entrenchment(rules, forts, side, hex);
    let mut units = Vec::new();
    for (u, h) in rules.on_map(state) {
        if h != hex || rules.unit_side(state, u) != side {
            continue;
        }
        let marker = state.units[u].entrenchment.map(|e| (marker_multiplier(e), e.name()));
        let (multiplier, why) = match (marker, redoubt) {
            (Some((m, name)), true) if m <= 3 => (3, format!("{name} in a redoubt ×1.5")),
            (Some((m, name)), _) => (m, format!("{name} {}", multiplier_text(m))),
            (None, true) => (3, "redoubt ×1.5".to_string()),
            (None, false) => (2, String::new()),
        };
        units.push(DefendingUnit {
            unit: u,
            cv: rules.combat_value(state, u),
            artillery: artillery_value(rules, state, u),
            multiplier,
            why: (multiplier > 2).then_some(why),
        });
    }
    let fort = fort_values(rules, forts, hex);
    let cv: Half = units.iter().map(|d| d.cv).sum();
    let fort_cv = fort.map_or(0, |f| u32::from(f.0) * 4);
    let fort_art = fort.map_or(0, |f| f.1);
    // cv halves × multiplier halves = quarters.
    let uncapped: u32 = units.iter().map(|d| u32::from(d.cv.halves()) * d.multiplier).sum::<u32>() + fort_cv;
    let entrenched = units.iter().filter(|d| d.multiplier > 2).count();
    let situation = MaxSituation::defending(entrenched, units.len());
    let cap = Quarters::from_half(rules.charts().maximum_values(situation));
    let art_halves: u32 = units.iter().map(|d| u32::from(d.artillery) * d.multiplier).sum();
    let artillery = u16::try_from(art_halves.div_ceil(2)).unwrap_or(u16::MAX).saturating_add(fort_art);
    Defence {
        cv,
        cv_entrenched: Quarters(uncapped).min(cap),
        cv_uncapped: Quarters(uncapped),
        situation,
        artillery_printed: units.iter().map(|d| d.artillery).sum::<u16>() + fort_art,
        artillery,
        fort,
        units,
    }
}

/// The attacking force's totals (GCACW 7.2, 7.3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offence {
    /// Combat total: each attacking hex capped separately by the Maximum Values (GCACW 7.2).
    pub cv: Half,
    /// Hexes whose attackers were capped, with their uncapped totals.
    pub capped: Vec<(Hex, Half)>,
    /// Artillery total.
    pub artillery: u16,
}

/// The attacking force's values (GCACW 7.2: in a grand assault the cap is per attacking hex).
#[must_use]
pub fn offence(rules: &Gcacw, state: &State, attackers: &[usize]) -> Offence {
    let cap = rules.charts().maximum_values(MaxSituation::Attacking);
    let mut by_hex: std::collections::BTreeMap<Option<Hex>, Half> = std::collections::BTreeMap::new();
    for &u in attackers {
        let e = by_hex.entry(state.units[u].hex).or_default();
        *e = *e + attack_value(rules, state, u);
    }
    let mut capped = Vec::new();
    let mut cv = Half::ZERO;
    for (h, v) in by_hex {
        if v > cap {
            if let Some(h) = h {
                capped.push((h, v));
            }
        }
        cv = cv + v.min(cap);
    }
    Offence { cv, capped, artillery: attackers.iter().map(|&u| artillery_value(rules, state, u)).sum() }
}

/// Whether a unit is a wagon train (HSN-B 2.2: never attacks, never helps a flank attack).
#[must_use]
pub fn is_wagon(rules: &Gcacw, state: &State, u: usize) -> bool {
    rules.unit_type(state, u) == CounterType::Wagon
}
