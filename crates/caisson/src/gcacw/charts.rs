//! The GCACW charts as `caisson chart` shows them. Every table is built from the lookups the
//! rules use (`caisson_gcacw::charts::Charts`), so what is printed is what the engine reads;
//! reconstructed values are found in `Charts::reconstructed` and marked.

use crate::charts::Footnote;
use crate::charts::{signed, Block, Cell, Chart, ChartInfo, Column, CombatQuery, CombatReading, CombatSide};
use caisson_gcacw::charts::{AttackType, CavalryRetreatCondition, CombatResult, Half, MaxSituation, Mover};
use caisson_gcacw::charts::{Charts, Route, RouteNeed, HSN_MAX_MANPOWER};
use caisson_gcacw::data::DataDir;
use caisson_gcacw::registry;
use caisson_gcacw::Side;
use caisson_hexmap::Terrain;

/// A chart: its command-line name, data file, title, purpose, rule sections, and the chart
/// names its reconstructed-value notes use.
struct Def {
    name: &'static str,
    file: &'static str,
    title: &'static str,
    purpose: &'static str,
    rules: &'static str,
    notes: &'static [&'static str],
}

const DEFS: [Def; 12] = [
    Def {
        name: "combat",
        file: "combat.toml",
        title: "Combat Chart",
        purpose: "each side's result of a combat",
        rules: "GCACW 7.5",
        notes: &["Combat Chart"],
    },
    Def {
        name: "terrain",
        file: "terrain.toml",
        title: "Terrain Chart",
        purpose: "MP to enter a hex: terrain, routes, rain",
        rules: "GCACW 6.1, 6.2, 12.0",
        notes: &["Terrain Chart"],
    },
    Def {
        name: "occupied",
        file: "occupied.toml",
        title: "Friendly-Occupied Hex",
        purpose: "extra MP to enter a hex friends hold",
        rules: "GCACW 6.2",
        notes: &["Friendly-Occupied Hex"],
    },
    Def {
        name: "attack-types",
        file: "attack-types.toml",
        title: "Attack Types",
        purpose: "MP cost and die modifier of march attacks",
        rules: "GCACW 6.1, 7.4",
        notes: &["Attack Types"],
    },
    Def {
        name: "movement-allowance",
        file: "movement-allowance.toml",
        title: "Movement Allowance",
        purpose: "dice for a march or a leader's activation",
        rules: "GCACW 5.1, 5.2",
        notes: &["Movement Allowance"],
    },
    Def {
        name: "strength",
        file: "strength.toml",
        title: "Strength markers",
        purpose: "Combat value of a disorganized unit",
        rules: "GCACW 2.2, 7.2",
        notes: &["Strength markers"],
    },
    Def {
        name: "extended-march",
        file: "extended-march.toml",
        title: "Extended March Table",
        purpose: "losses of a march at high Fatigue",
        rules: "GCACW 5.1",
        notes: &["Extended March Table"],
    },
    Def {
        name: "ratio",
        file: "ratio.toml",
        title: "Ratio Chart",
        purpose: "attacker's die modifier for the odds",
        rules: "GCACW 7.4",
        notes: &["Ratio Chart"],
    },
    Def {
        name: "artillery",
        file: "artillery.toml",
        title: "Artillery Modifier Summary",
        purpose: "attacker's die modifier for artillery",
        rules: "GCACW 7.4",
        notes: &["Artillery Modifier Summary"],
    },
    Def {
        name: "maximum-values",
        file: "maximum-values.toml",
        title: "Maximum Values",
        purpose: "the most Combat value that counts",
        rules: "GCACW 7.2",
        notes: &["Maximum Values"],
    },
    Def {
        name: "cavalry-retreat",
        file: "cavalry-retreat.toml",
        title: "Cavalry Retreat Table",
        purpose: "MP a cavalry retreat costs the attacker",
        rules: "GCACW 7.7",
        notes: &[],
    },
    Def {
        name: "retreat",
        file: "retreat.toml",
        title: "Retreat Charts 1 and 2",
        purpose: "where a retreat goes, and its losses",
        rules: "GCACW 7.6",
        notes: &[],
    },
];

/// Every chart, one line each.
pub(crate) fn list() -> Result<Vec<ChartInfo>, String> {
    DEFS.iter()
        .map(|d| {
            Ok(ChartInfo {
                name: d.name.into(),
                title: d.title.into(),
                purpose: d.purpose.into(),
                rules: d.rules.into(),
                source: source_kind(&file_source(d)?).into(),
            })
        })
        .collect()
}

/// One chart as tables.
pub(crate) fn chart(name: &str) -> Result<Chart, String> {
    let def = DEFS.iter().find(|d| d.name == name).ok_or_else(|| format!("no chart `{name}` in gcacw"))?;
    let data = registry::hsn()?;
    let c = &data.charts;
    let mut notes = Notes::new(c, def.notes);
    let mut chart = Chart {
        title: def.title.into(),
        rules: def.rules.into(),
        source: file_source(def)?,
        mark: '†',
        ..Chart::default()
    };
    match def.name {
        "combat" => combat(c, &mut notes, &mut chart),
        "terrain" => terrain(c, &mut notes, &mut chart),
        "occupied" => occupied(c, &mut notes, &mut chart),
        "attack-types" => attack_types(c, &mut notes, &mut chart),
        "movement-allowance" => movement_allowance(c, &mut notes, &mut chart),
        "strength" => strength(c, &mut notes, &mut chart),
        "extended-march" => extended_march(c, &mut notes, &mut chart),
        "ratio" => ratio(c, &mut notes, &mut chart),
        "artillery" => artillery(c, &mut notes, &mut chart),
        "maximum-values" => maximum_values(c, &mut notes, &mut chart),
        "cavalry-retreat" => cavalry_retreat(c, &mut chart),
        _ => retreat(c, &mut chart),
    }
    for (item, reason) in notes.unused() {
        add_footnote(&mut chart, &item, &reason, false);
    }
    Ok(chart)
}

/// The `source` at the top of a chart's data file (the charts' loader keeps only the
/// reconstructed ones).
fn file_source(def: &Def) -> Result<String, String> {
    #[derive(serde::Deserialize)]
    struct Head {
        source: String,
    }
    let file = DataDir::builtin().join("gcacw/charts").join(def.file);
    let text = file.read().map_err(|e| e.to_string())?;
    let head: Head = caisson_kernel::data::parse_toml(&text, &file.display()).map_err(|e| e.to_string())?;
    Ok(head.source.trim().to_string())
}

/// What kind of source a chart-level `source` names.
fn source_kind(source: &str) -> &'static str {
    if source.starts_with("reconstructed") {
        "reconstructed"
    } else if source.contains("official") {
        "official chart"
    } else if source.starts_with("GCACW") || source.starts_with("HSN") {
        "rulebook section"
    } else {
        "public source"
    }
}

/// The reconstructed-value notes of one chart ("{chart}: {item} — {reason}"), to be placed in
/// its cells; those never placed are listed under the chart anyway.
struct Notes {
    list: Vec<(String, String, bool)>,
}

impl Notes {
    fn new(c: &Charts, charts: &[&str]) -> Notes {
        let list = c
            .reconstructed()
            .into_iter()
            .filter_map(|line| {
                let (chart, rest) = line.split_once(": ")?;
                if !charts.contains(&chart) {
                    return None;
                }
                let (item, reason) = rest.split_once(" — ")?;
                Some((item.trim().to_string(), reason.trim().to_string(), false))
            })
            .collect();
        Notes { list }
    }

    /// The reason of the note on `item`, if there is one.
    fn find(&mut self, item: &str) -> Option<String> {
        let note = self.list.iter_mut().find(|(i, _, _)| i == item)?;
        note.2 = true;
        Some(note.1.clone())
    }

    /// The reason of a note on the whole chart.
    fn whole(&mut self) -> Option<String> {
        self.find("whole chart").or_else(|| self.find("whole table"))
    }

    /// Every note as (item, reason), for parsing; a note is marked used by `find`.
    fn all(&self) -> Vec<(String, String)> {
        self.list.iter().map(|(i, r, _)| (i.clone(), r.clone())).collect()
    }

    fn unused(&self) -> Vec<(String, String)> {
        self.list.iter().filter(|n| !n.2).map(|(i, r, _)| (i.clone(), r.clone())).collect()
    }
}

/// Files `item` under its reason, grouping the items that share a reason.
fn add_footnote(chart: &mut Chart, item: &str, reason: &str, placed: bool) {
    match chart.footnotes.iter_mut().find(|f| f.reason == reason && f.placed == placed) {
        Some(f) => {
            if !f.items.iter().any(|i| i == item) {
                f.items.push(item.to_string());
            }
        }
        None => chart.footnotes.push(Footnote { items: vec![item.to_string()], reason: reason.to_string(), placed }),
    }
}

/// Looks up `item`; if it is reconstructed, files its footnote and returns true.
fn check(notes: &mut Notes, chart: &mut Chart, item: &str) -> bool {
    match notes.find(item) {
        Some(reason) => {
            add_footnote(chart, item, &reason, true);
            true
        }
        None => false,
    }
}

/// Files the whole-chart note, if any; returns whether there is one.
fn check_whole(notes: &mut Notes, chart: &mut Chart) -> bool {
    match notes.whole() {
        Some(reason) => {
            add_footnote(chart, "every value", &reason, true);
            true
        }
        None => false,
    }
}

fn mp(h: Half) -> String {
    h.to_string()
}

fn capitalized(s: &str) -> String {
    let mut chars = s.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

// -----------------------------------------------------------------------------------------
// Combat Chart

/// What the parts of a Combat Chart result mean (GCACW 7.5), in display order.
const LETTERS: [(&str, &str); 8] = [
    (
        "D",
        "Disorganize/Fatigue: the Strength marker turns to its disorganized side (it stays so if it already \
         is) and Fatigue rises by 3, to at most 4; an active unit's march ends",
    ),
    ("F", "Fatigue-2: Fatigue rises by 2, to at most 4; an active unit's march ends"),
    ("f", "Fatigue-1: Fatigue rises by 1, to at most 4; an active unit's march ends"),
    ("E", "End Action: an active unit's march ends (no effect in an assault, which ends after its combat anyway)"),
    ("r", "Retreat: the units retreat 2 to 4 hexes (GCACW 7.6)"),
    (
        "R",
        "Rout/Demoralize-1: the units rout 4 to 6 hexes (GCACW 7.6) and gain a Demoralize-1 marker; one \
         already at Demoralize-1 turns to Demoralize-2",
    ),
    (
        "*",
        "after R, Demoralize-2 instead: the units gain a Demoralize-2 marker; one already at Demoralize-2 also \
         loses 1 more Manpower",
    ),
    ("a", "Advance: the unit may advance after combat into the hex the defender left (GCACW 7.6)"),
];

fn letter(code: &str) -> &'static str {
    LETTERS.iter().find(|(c, _)| *c == code).map_or("", |(_, m)| m)
}

/// Each part of a result with its meaning.
fn meanings(r: &CombatResult, defender: bool) -> Vec<(String, String)> {
    if r.is_no_effect() {
        return vec![("-".into(), "no effect: the units are unaffected".into())];
    }
    let mut out = Vec::new();
    if r.loss > 0 {
        let who = if defender {
            "the defending force loses it as a whole; the defender divides it among his units as he wishes"
        } else {
            "the attacking force loses it as a whole (in a march, the active unit); the attacker divides it \
             as he wishes"
        };
        out.push((
            r.loss.to_string(),
            format!(
                "Manpower lost: {who}. The new Strength marker is disorganized if the result has a D or the old \
                 one was disorganized"
            ),
        ));
    }
    for (on, code) in [
        (r.disorganize, "D"),
        (r.fatigue_2, "F"),
        (r.fatigue_1, "f"),
        (r.end_action, "E"),
        (r.retreat, "r"),
        (r.rout, "R"),
        (r.demoralize_2, "*"),
        (r.advance, "a"),
    ] {
        if on {
            out.push((code.to_string(), letter(code).to_string()));
        }
    }
    out
}

/// Probes a column choice from ½ to 200 and returns each column's label with the smallest
/// Combat value that reads it.
fn probe_columns(f: impl Fn(Half) -> String) -> Vec<(String, Half)> {
    let mut out: Vec<(String, Half)> = Vec::new();
    for h in 1..=400u16 {
        let cv = Half::from_halves(h);
        let label = f(cv);
        if out.last().is_none_or(|(l, _)| *l != label) {
            out.push((label, cv));
        }
    }
    out
}

fn combat_rows(c: &Charts) -> (i32, i32) {
    let one = Half::whole(1);
    (c.combat(i32::MIN / 2, one, one).row, c.combat(i32::MAX / 2, one, one).row)
}

fn row_label(row: i32, lowest: i32, highest: i32) -> String {
    match row {
        r if r == lowest => format!("≤{}", signed(r)),
        r if r == highest => format!("≥{}", signed(r)),
        r => signed(r),
    }
}

fn combat(c: &Charts, notes: &mut Notes, chart: &mut Chart) {
    let one = Half::whole(1);
    let (lowest, highest) = combat_rows(c);
    let def = probe_columns(|cv| c.combat(0, cv, one).defender_column);
    let att = probe_columns(|cv| c.combat(0, one, cv).attacker_column);
    let whole = check_whole(notes, chart);
    let mut columns = vec![Column::label("Row")];
    columns.extend(def.iter().map(|(l, _)| Column::value(l.clone())));
    columns.extend(att.iter().enumerate().map(|(i, (l, _))| {
        let col = Column::value(l.clone());
        if i == 0 {
            col.ruled()
        } else {
            col
        }
    }));
    let mut rows = Vec::new();
    for row in lowest..=highest {
        let marked = check(notes, chart, &format!("row {}", signed(row))) || whole;
        let mut cells = vec![Cell::new(row_label(row, lowest, highest))];
        cells.extend(def.iter().map(|(_, cv)| Cell::marked(c.combat(row, *cv, one).defender.to_string(), marked)));
        cells.extend(att.iter().map(|(_, cv)| Cell::marked(c.combat(row, one, *cv).attacker.to_string(), marked)));
        rows.push(cells);
    }
    chart.about = vec![
        "Row: the attacker's modified die roll minus the defender's; the first and last rows also take every \
         differential beyond them. The defender reads its result on the left, in the column of its combined \
         Combat value before entrenchment; the attacker on the right, in the column of its own. A value between \
         two columns (3½) moves up into the right-hand one. The defender's result is applied first."
            .into(),
        "Read one cell with its meaning: caisson chart gcacw combat --diff +4 --attacker-cv 8 --defender-cv 7".into(),
    ];
    chart.blocks.push(Block {
        caption: None,
        groups: vec![
            (String::new(), 1),
            ("Defender's Combat value".into(), def.len()),
            ("Attacker's Combat value".into(), att.len()),
        ],
        columns,
        rows,
    });
    chart.legend = vec![
        (String::new(), "A number is the Manpower the force loses; the letters (GCACW 7.5):".into()),
        ("-".into(), "no effect".into()),
    ];
    chart.legend.extend(LETTERS.iter().map(|(code, meaning)| (code.to_string(), meaning.to_string())));
}

/// One Combat Chart cell for each side, explained.
pub(crate) fn combat_reading(q: &CombatQuery) -> Result<CombatReading, String> {
    let data = registry::hsn()?;
    let c = &data.charts;
    let def = DEFS.iter().find(|d| d.name == "combat").ok_or("no Combat Chart")?;
    let (defender_cv, attacker_cv) = (Half::from_halves(q.defender_cv), Half::from_halves(q.attacker_cv));
    let cells = c.combat(q.differential, defender_cv, attacker_cv);
    let (lowest, _) = combat_rows(c);
    let mut notes = Notes::new(c, def.notes);
    let reason = notes.find(&format!("row {}", signed(cells.row))).or_else(|| notes.whole());
    let row_note = (cells.row != q.differential).then(|| {
        let end = if cells.row == lowest { "first" } else { "last" };
        format!(
            "{} is beyond the chart, whose {end} row ({}) takes every differential past it.",
            signed(q.differential),
            signed(cells.row)
        )
    });
    let side = |cv: Half, column: String, result: &CombatResult, defender: bool| CombatSide {
        cv: cv.to_string(),
        cv_note: if defender { "before entrenchment".into() } else { String::new() },
        column,
        result: result.to_string(),
        meanings: meanings(result, defender),
        reconstructed: reason.clone(),
    };
    Ok(CombatReading {
        title: def.title.into(),
        rules: def.rules.into(),
        source: file_source(def)?,
        differential: q.differential,
        row: signed(cells.row),
        row_note,
        defender: side(defender_cv, cells.defender_column.clone(), &cells.defender, true),
        attacker: side(attacker_cv, cells.attacker_column.clone(), &cells.attacker, false),
        notes: vec![
            "The defender's result is applied before the attacker's. Both results, their letters (GCACW 7.5) and \
             retreats (GCACW 7.6) are explained in `caisson chart gcacw combat`."
                .into(),
        ],
    })
}

// -----------------------------------------------------------------------------------------
// Terrain Chart

fn route_name(r: Route) -> &'static str {
    match r {
        Route::Pike => "pike",
        Route::Road => "road",
        Route::Railroad => "railroad",
        Route::Trail => "trail",
    }
}

/// The note item of a terrain's own costs, as the charts' loader writes it.
fn cost_item(c: &Charts, t: Terrain) -> Option<String> {
    let (dry, wet) = (c.terrain_cost(t, false)?, c.terrain_cost(t, true)?);
    Some(format!("{t} costs {dry} MP (rain {wet})"))
}

fn terrain(c: &Charts, notes: &mut Notes, chart: &mut Chart) {
    let whole = check_whole(notes, chart);
    let mut rows = Vec::new();
    for t in Terrain::ALL {
        let (eff_dry, eff_wet) = (c.effective_terrain(t, false), c.effective_terrain(t, true));
        let mut cost_marked = [whole, whole];
        for (k, eff) in [eff_dry, eff_wet].into_iter().enumerate() {
            if let Some(item) = cost_item(c, eff) {
                cost_marked[k] |= check(notes, chart, &item);
            }
        }
        let entry = if c.impassable(t) {
            "may not be entered".to_string()
        } else if eff_dry != t || eff_wet != t {
            format!("as {eff_dry} in dry turns, as {eff_wet} in rain")
        } else {
            match c.needs_route(t) {
                Some(RouteNeed::RoadPikeRailroad) => "only along a road, pike or railroad".into(),
                Some(RouteNeed::AnyRoute) => "only along a road, pike, trail or railroad".into(),
                None => String::new(),
            }
        };
        let entry_marked = check(notes, chart, &format!("{t} only along a route"))
            | check(notes, chart, &format!("{t} acts as {eff_dry} (rain {eff_wet})"))
            || whole;
        let cost = |rain| c.terrain_cost(t, rain).map_or_else(|| "—".to_string(), mp);
        rows.push(vec![
            Cell::new(t.to_string()),
            Cell::marked(cost(false), cost_marked[0]),
            Cell::marked(cost(true), cost_marked[1]),
            Cell::marked(entry, entry_marked),
        ]);
    }
    chart.blocks.push(Block {
        caption: Some("Across a hexside without a route: the terrain of the hex entered".into()),
        groups: Vec::new(),
        columns: vec![Column::label("Terrain"), Column::value("MP"), Column::value("rain"), Column::words("entry")],
        rows,
    });
    let mut rows = Vec::new();
    for r in Route::ALL {
        let (dry, wet) = (c.route_cost(r, Terrain::Clear, false), c.route_cost(r, Terrain::Clear, true));
        let marked = check(notes, chart, &format!("{} costs {dry} MP (rain {wet})", route_name(r))) || whole;
        rows.push(vec![
            Cell::new(route_name(r)),
            Cell::marked(mp(dry), marked),
            Cell::marked(mp(wet), marked),
            Cell::marked(mp(c.route_cost(r, Terrain::Mountain, false)), marked),
            Cell::marked(mp(c.route_cost(r, Terrain::Mountain, true)), marked),
        ]);
    }
    chart.blocks.push(Block {
        caption: Some(
            "Across a hexside crossed by a route: the hex's terrain is ignored (an unfinished railroad is a road)"
                .into(),
        ),
        groups: vec![(String::new(), 1), ("any hex".into(), 2), ("a mountain hex".into(), 2)],
        columns: vec![
            Column::label("Route"),
            Column::value("MP").ruled(),
            Column::value("rain"),
            Column::value("MP").ruled(),
            Column::value("rain"),
        ],
        rows,
    });
    let ridge = c.ridge_extra();
    let marked = check(notes, chart, &format!("ridge +{ridge} MP")) || whole;
    chart.blocks.push(Block {
        caption: None,
        groups: Vec::new(),
        columns: vec![Column::label("Also"), Column::value("MP")],
        rows: vec![vec![
            Cell::new("crossing a ridge hexside, either way, even along a route"),
            Cell::marked(format!("+{ridge}"), marked),
        ]],
    });
    chart.about = vec![
        "Movement Points to enter a hex (GCACW 6.1, 6.2). \"rain\" is the cost in rain turns (GCACW 12.0) and in \
         Hood Strikes North's winter weather (HSN-A 4.0). Penalties for friendly-occupied hexes are on the \
         `occupied` chart."
            .into(),
    ];
}

// -----------------------------------------------------------------------------------------
// Friendly-Occupied Hex

fn occupied(c: &Charts, notes: &mut Notes, chart: &mut Chart) {
    let whole = check_whole(notes, chart);
    let terrains: Vec<Terrain> = Terrain::ALL
        .into_iter()
        .filter(|t| !c.impassable(*t) && c.effective_terrain(*t, false) == *t && c.effective_terrain(*t, true) == *t)
        .collect();
    let by_cv = |t: Terrain, cv: u16| c.occupied_penalty(t, Half::whole(cv), false, false);
    // Bands of combined Combat value where some penalty changes.
    let mut bands: Vec<(u16, Option<u16>)> = Vec::new();
    for cv in 0..=200u16 {
        let changed = cv == 0 || terrains.iter().any(|t| by_cv(*t, cv) != by_cv(*t, cv - 1));
        if changed {
            if let Some(last) = bands.last_mut() {
                last.1 = Some(cv - 1);
            }
            bands.push((cv, None));
        }
    }
    // Terrains with the same penalties share a column.
    let mut groups: Vec<(Vec<Terrain>, Vec<Half>, Half)> = Vec::new();
    for t in &terrains {
        let pens: Vec<Half> = bands.iter().map(|(from, _)| by_cv(*t, *from)).collect();
        let wagon = c.occupied_penalty(*t, Half::ZERO, true, false);
        match groups.iter_mut().find(|(_, p, w)| *p == pens && *w == wagon) {
            Some(g) => g.0.push(*t),
            None => groups.push((vec![*t], pens, wagon)),
        }
    }
    let mut marked = vec![whole; groups.len()];
    for (item, _) in notes.all() {
        let Some((names, _)) = item.split_once(": +") else { continue };
        let first = names.split('/').next().unwrap_or_default();
        if let Some(g) = groups.iter().position(|(ts, _, _)| ts.iter().any(|t| t.to_string() == first)) {
            marked[g] |= check(notes, chart, &item);
        }
    }
    let plus = |h: Half| if h == Half::ZERO { "0".to_string() } else { format!("+{h}") };
    let rows = groups
        .iter()
        .zip(&marked)
        .map(|((ts, pens, wagon), m)| {
            let mut cells = vec![Cell::new(ts.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "))];
            cells.extend(pens.iter().map(|p| Cell::marked(plus(*p), *m)));
            cells.push(Cell::marked(plus(*wagon), *m));
            cells
        })
        .collect();
    let mut columns = vec![Column::label("Terrain of the hex entered")];
    columns.extend(bands.iter().enumerate().map(|(b, (from, to))| {
        let label = match (from, to) {
            (0, Some(to)) => format!("less than {}", to + 1),
            (from, None) => format!("more than {}", from.saturating_sub(1)),
            (from, Some(to)) if from == to => from.to_string(),
            (from, Some(to)) => format!("{from} to {to}"),
        };
        if b == 0 {
            Column::value(label).ruled()
        } else {
            Column::value(label)
        }
    }));
    columns.push(Column::value("wagon train").ruled());
    chart.blocks.push(Block {
        caption: None,
        groups: vec![(String::new(), 1), ("Combat value already in the hex".into(), bands.len()), (String::new(), 1)],
        columns,
        rows,
    });
    let ps = Terrain::ProvisionalSwamp;
    chart.about = vec![format!(
        "The extra Movement Points an active infantry, artillery or wagon unit (or unmounted cavalry, HSN-A 5.5) \
         pays to enter a hex holding friendly infantry, artillery or a wagon train (GCACW 6.2). Mounted cavalry \
         neither pays nor causes it. The Combat value already in the hex is counted without entrenchment and \
         rounded up to whole points; with a wagon train there, the wagon train's penalty applies if it is \
         larger. {} takes the line of {}, or of {} in rain.",
        capitalized(&ps.to_string()),
        c.effective_terrain(ps, false),
        c.effective_terrain(ps, true)
    )];
}

// -----------------------------------------------------------------------------------------
// Attack types, Movement Allowance, Strength markers

fn attack_types(c: &Charts, notes: &mut Notes, chart: &mut Chart) {
    let whole = check_whole(notes, chart);
    let rows = AttackType::ALL
        .into_iter()
        .map(|kind| {
            let a = c.attack_type(kind);
            let marked = check(notes, chart, &format!("{kind:?}")) || whole;
            let name = match kind {
                AttackType::ColumnOfRoute => "column of route",
                AttackType::Hasty => "hasty",
                AttackType::Normal => "normal",
                AttackType::Prepared => "prepared",
            };
            let left = if a.min_ma == Half::ZERO { "—".to_string() } else { format!("{} MP", a.min_ma) };
            vec![
                Cell::new(name),
                Cell::marked(mp(a.infantry_mp), marked),
                Cell::marked(mp(a.cavalry_mp), marked),
                Cell::marked(signed(i32::from(a.drm)), marked),
                Cell::marked(left, marked),
            ]
        })
        .collect();
    chart.blocks.push(Block {
        caption: None,
        groups: vec![(String::new(), 1), ("MP spent".into(), 2), (String::new(), 2)],
        columns: vec![
            Column::label("Attack"),
            Column::value("infantry").ruled(),
            Column::value("cavalry"),
            Column::value("attacker's die").ruled(),
            Column::value("MP needed left"),
        ],
        rows,
    });
    chart.about =
        vec!["The kinds of attack an active unit may make in a march: the MP it spends (GCACW 6.1) and the modifier \
         to the attacker's die (GCACW 7.4). An assault takes none of these (it has +1 instead, GCACW 7.4). A \
         column-of-route attack costs nothing but must be declared with MP still left."
            .into()];
}

fn movement_allowance(c: &Charts, notes: &mut Notes, chart: &mut Chart) {
    let whole = check_whole(notes, chart);
    let rows = Mover::ALL
        .into_iter()
        .map(|mover| {
            let name = match mover {
                Mover::Infantry => "infantry or artillery march",
                Mover::Cavalry => "cavalry march",
                Mover::Wagon => "wagon train march",
                Mover::InfantryLeader => "infantry leader's activation",
                Mover::CavalryDivisionLeader => "cavalry division leader's activation",
                Mover::CavalryCorpsLeader => "cavalry corps leader's activation",
            };
            let mut cells = vec![Cell::new(name)];
            for side in Side::BOTH {
                let dice = c.movement_allowance(side, mover);
                let marked = check(notes, chart, &format!("{side} {mover:?}: {dice}")) || whole;
                cells.push(Cell::marked(dice.to_string(), marked));
            }
            cells
        })
        .collect();
    let mut columns = vec![Column::label("Who moves")];
    columns.extend(Side::BOTH.iter().map(|s| Column::value(s.to_string())));
    chart.blocks.push(Block { caption: None, groups: Vec::new(), columns, rows });
    chart.about =
        vec!["The dice rolled for a Movement Allowance: a march (GCACW 5.1) or a leader's activation (GCACW 5.2), \
         with Hood Strikes North's values; a wagon train moves as its side's infantry (HSN-B 2.2). Scenario \
         adjustments (arrival bonuses, Command Paralysis) come on top."
            .into()];
}

fn strength(c: &Charts, notes: &mut Notes, chart: &mut Chart) {
    let whole = check_whole(notes, chart);
    let mut columns = vec![Column::label("Manpower")];
    let mut cells = vec![Cell::new("Combat value, disorganized")];
    for m in 1..=HSN_MAX_MANPOWER {
        let cv = c.disorganized_cv(m);
        let marked = check(notes, chart, &format!("disorganized Manpower {m} has Combat {cv}")) || whole;
        columns.push(Column::value(m.to_string()));
        cells.push(Cell::marked(cv.to_string(), marked));
    }
    chart.blocks.push(Block { caption: None, groups: Vec::new(), columns, rows: vec![cells] });
    chart.about = vec![format!(
        "The Combat value on the disorganized side of a Strength marker, for each Manpower value up to Hood \
         Strikes North's largest ({HSN_MAX_MANPOWER}) (GCACW 2.2; it may be ½, GCACW 7.2)."
    )];
}

// -----------------------------------------------------------------------------------------
// Extended March Table

/// Reads a note item "Organized, modified roll 7, 8 → D" or "Disorganized, Manpower 1–5,
/// modified roll 10, 11 or more → 2": the columns (0 = Organized, m = Manpower m), the rolls
/// and the result.
fn emt_item(item: &str) -> Option<(Vec<usize>, Vec<i32>, String)> {
    let (left, result) = item.rsplit_once(" → ")?;
    let (who, rolls) = left.split_once(", modified roll ")?;
    let columns: Vec<usize> = if who == "Organized" {
        vec![0]
    } else {
        let list = who.strip_prefix("Disorganized, Manpower ")?;
        match list.split_once('–') {
            Some((a, b)) => (a.trim().parse().ok()?..=b.trim().parse().ok()?).collect(),
            None => list.split(", ").map(|m| m.trim().parse().ok()).collect::<Option<_>>()?,
        }
    };
    let rolls = rolls
        .split(", ")
        .map(|r| r.trim_end_matches(" or less").trim_end_matches(" or more").trim().parse().ok())
        .collect::<Option<Vec<i32>>>()?;
    Some((columns, rolls, result.trim().to_string()))
}

fn extended_march(c: &Charts, notes: &mut Notes, chart: &mut Chart) {
    let whole = check_whole(notes, chart);
    let columns: Vec<(bool, u8)> =
        std::iter::once((true, 1)).chain((1..=HSN_MAX_MANPOWER).map(|m| (false, m))).collect();
    let at = |roll: i32| -> Vec<String> {
        columns.iter().map(|(org, m)| c.extended_march(roll, *org, *m).to_string()).collect()
    };
    // The rows: where the table stops changing, widened to the rolls the notes name.
    let (far_low, far_high) = (at(-100), at(100));
    let mut lo = -100;
    while lo < 100 && at(lo + 1) == far_low {
        lo += 1;
    }
    let mut hi = 100;
    while hi > lo && at(hi - 1) == far_high {
        hi -= 1;
    }
    let mut marks: Vec<(usize, i32)> = Vec::new();
    for (item, _) in notes.all() {
        let Some((cols, rolls, result)) = emt_item(&item) else { continue };
        let fits = cols.iter().all(|col| {
            rolls
                .iter()
                .all(|r| columns.get(*col).is_some_and(|(o, m)| c.extended_march(*r, *o, *m).to_string() == result))
        });
        if fits && check(notes, chart, &item) {
            for col in &cols {
                marks.extend(rolls.iter().map(|r| (*col, *r)));
            }
        }
    }
    lo = marks.iter().map(|(_, r)| *r).fold(lo, i32::min);
    hi = marks.iter().map(|(_, r)| *r).fold(hi, i32::max);
    let rows = (lo..=hi)
        .map(|roll| {
            let label = if roll == lo {
                format!("{roll} or less")
            } else if roll == hi {
                format!("{roll} or more")
            } else {
                roll.to_string()
            };
            let mut cells = vec![Cell::new(label)];
            cells.extend(
                at(roll)
                    .into_iter()
                    .enumerate()
                    .map(|(i, text)| Cell::marked(text, whole || marks.contains(&(i, roll)))),
            );
            cells
        })
        .collect();
    let mut cols = vec![Column::label("Roll"), Column::value("Organized").ruled()];
    cols.extend((1..=HSN_MAX_MANPOWER).enumerate().map(|(i, m)| {
        let col = Column::value(m.to_string());
        if i == 0 {
            col.ruled()
        } else {
            col
        }
    }));
    chart.blocks.push(Block {
        caption: None,
        groups: vec![(String::new(), 2), ("Disorganized, by Manpower".into(), usize::from(HSN_MAX_MANPOWER))],
        columns: cols,
        rows,
    });
    chart.about =
        vec!["A march that brings a unit on its normal side to Fatigue Level 3 or 4, or one on its exhausted side to \
         2, 3 or 4, is an extended march (GCACW 5.1): the player rolls a die, adds the modifiers, and reads the \
         Organized column, or, if the unit's Strength marker is disorganized, the column of its current Manpower."
            .into()];
    chart.legend = vec![
        ("NE".into(), "no effect".into()),
        ("D".into(), "the Strength marker turns to its disorganized side".into()),
        ("1, 2, 3".into(), "that much Manpower is lost; the new marker is disorganized (GCACW 5.1)".into()),
    ];
}

// -----------------------------------------------------------------------------------------
// Ratio Chart, Artillery Modifier Summary, Maximum Values

fn ratio(c: &Charts, notes: &mut Notes, chart: &mut Chart) {
    let whole = check_whole(notes, chart);
    // Asking for every a-d with terms up to 40 finds every listed ratio with such terms.
    let mut found: Vec<(u32, u32, i8)> = Vec::new();
    for a in 1..=40u16 {
        for d in 1..=40u16 {
            let (label, modifier) = c.ratio(Half::whole(a), Half::whole(d));
            let Some((x, y)) = label.split_once('-') else { continue };
            let (Ok(x), Ok(y)) = (x.parse::<u32>(), y.parse::<u32>()) else { continue };
            if !found.iter().any(|(fx, fy, _)| *fx == x && *fy == y) {
                found.push((x, y, modifier));
            }
        }
    }
    found.sort_by(|p, q| (p.0 * q.1).cmp(&(q.0 * p.1)));
    let rows = found
        .iter()
        .map(|(a, d, m)| {
            let m = signed(i32::from(*m));
            let marked = check(notes, chart, &format!("{a}-{d} → {m}")) || whole;
            vec![Cell::new(format!("{a}-{d}")), Cell::marked(m, marked)]
        })
        .collect();
    chart.blocks.push(Block {
        caption: None,
        groups: Vec::new(),
        columns: vec![Column::label("Ratio"), Column::value("attacker's die")],
        rows,
    });
    chart.about =
        vec!["The attacker's total Combat value to the defender's (entrenchment included), rounded down in the \
         defender's favour to the nearest ratio listed; a ratio below the first reads the first. The attacker \
         adds the modifier to his die. In the HSN combat example 8 to 7 rounds down to 1-1: no modifier."
            .into()];
}

fn band_label(from: Option<i32>, to: Option<i32>) -> String {
    match (from, to) {
        (None, Some(to)) => format!("{} or less", signed(to)),
        (Some(from), None) => format!("{} or more", signed(from)),
        (Some(from), Some(to)) if from == to => signed(from),
        (Some(from), Some(to)) => format!("{} to {}", signed(from), signed(to)),
        (None, None) => "any".into(),
    }
}

fn artillery(c: &Charts, notes: &mut Notes, chart: &mut Chart) {
    // The chart prints "†" in its own cells, so reconstructed values get another mark.
    chart.mark = '‡';
    let whole = check_whole(notes, chart);
    let terrains: Vec<Terrain> = Terrain::ALL
        .into_iter()
        .filter(|t| !c.impassable(*t) && c.effective_terrain(*t, false) == *t && c.effective_terrain(*t, true) == *t)
        .collect();
    let at = |d: i32| -> Vec<String> { terrains.iter().map(|t| c.artillery(d, *t).to_string()).collect() };
    let mut starts: Vec<i32> = Vec::new();
    for d in -40..=40 {
        if d == -40 || at(d) != at(d - 1) {
            starts.push(d);
        }
    }
    let bands: Vec<(Option<i32>, Option<i32>)> = starts
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let from = (i > 0).then_some(*s);
            let to = starts.get(i + 1).map(|next| next - 1);
            (from, to)
        })
        .collect();
    let mut groups: Vec<(Vec<Terrain>, Vec<String>)> = Vec::new();
    for t in &terrains {
        let cells: Vec<String> = starts.iter().map(|d| c.artillery(*d, *t).to_string()).collect();
        match groups.iter_mut().find(|(_, cs)| *cs == cells) {
            Some(g) => g.0.push(*t),
            None => groups.push((vec![*t], cells)),
        }
    }
    let rows = groups
        .iter()
        .map(|(ts, cells)| {
            let mut row = vec![Cell::new(ts.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "))];
            row.extend(cells.iter().map(|x| Cell::marked(x.clone(), whole)));
            row
        })
        .collect();
    let mut columns = vec![Column::label("Defender's terrain")];
    columns.extend(bands.iter().map(|(f, t)| Column::value(band_label(*f, *t))));
    chart.blocks.push(Block {
        caption: None,
        groups: vec![(String::new(), 1), ("Artillery differential".into(), bands.len())],
        columns,
        rows,
    });
    let ps = Terrain::ProvisionalSwamp;
    chart.about = vec![format!(
        "Differential: the attacker's Artillery total minus the defender's (the defender's sum multiplied by \
         entrenchment, rounded up), read on the line of the defender's terrain; {ps} reads the {} line, or the \
         {} line in rain. The special cases of GCACW 7.4 (no artillery on a side, small totals) and Hood Strikes \
         North's forts (HSN-B 7.4) come on top.",
        c.effective_terrain(ps, false),
        c.effective_terrain(ps, true)
    )];
    chart.legend = vec![
        ("NE".into(), "no effect".into()),
        ("*".into(), "roll a die just before combat: on an even roll the modifier applies, on an odd roll not".into()),
        (
            "†".into(),
            "roll a die just before combat: even gives the value shown, odd one less (+2† is +2 or +1)".into(),
        ),
    ];
}

fn maximum_values(c: &Charts, notes: &mut Notes, chart: &mut Chart) {
    let whole = check_whole(notes, chart);
    let rows = [
        (MaxSituation::Attacking, "attacking (in a grand assault: each attacking hex)"),
        (MaxSituation::Defending, "defending, fewer than half the units entrenched"),
        (MaxSituation::HalfEntrenched, "defending, at least half the units entrenched"),
        (MaxSituation::AllEntrenched, "defending, every unit entrenched"),
    ]
    .into_iter()
    .map(|(s, label)| vec![Cell::new(label), Cell::marked(c.maximum_values(s).to_string(), whole)])
    .collect();
    chart.blocks.push(Block {
        caption: None,
        groups: Vec::new(),
        columns: vec![Column::label("Force"), Column::value("most Combat value")],
        rows,
    });
    let mut bands: Vec<(u16, Option<u16>, u8)> = Vec::new();
    for cv in 0..=400u16 {
        let extra = c.grand_assault_extra_loss(Half::whole(cv));
        if bands.last().is_none_or(|b| b.2 != extra) {
            if let Some(last) = bands.last_mut() {
                last.1 = Some(cv - 1);
            }
            bands.push((cv, None, extra));
        }
    }
    let rows = bands
        .iter()
        .filter(|b| b.2 > 0)
        .map(|(from, to, extra)| {
            let label = to.map_or_else(|| format!("{from} or more"), |to| format!("{from} to {to}"));
            vec![Cell::new(label), Cell::marked(format!("+{extra}"), whole)]
        })
        .collect();
    chart.blocks.push(Block {
        caption: Some("A grand assault with a large attacking total loses more Manpower".into()),
        groups: Vec::new(),
        columns: vec![Column::label("Attacking total"), Column::value("extra loss")],
        rows,
    });
    chart.about =
        vec!["The most combined Combat value that counts for a force in combat (GCACW 7.2, the \"Other Games\" \
         column, which is Hood Strikes North's); entrenchment is included for the defender."
            .into()];
}

// -----------------------------------------------------------------------------------------
// Cavalry Retreat Table, Retreat Charts

fn is_reconstructed(source: &str) -> bool {
    source.trim_start().starts_with("reconstructed")
}

fn cavalry_retreat(c: &Charts, chart: &mut Chart) {
    let rows = c
        .cavalry_retreat_modifiers()
        .iter()
        .map(|m| {
            let marked = is_reconstructed(&m.source);
            if marked {
                add_footnote(chart, &m.label, &m.source, true);
            }
            let when = match &m.condition {
                CavalryRetreatCondition::Terrain(_) => "the cavalry's hex",
                CavalryRetreatCondition::Manpower { .. } => "the cavalry's combined Manpower",
                CavalryRetreatCondition::OutOfAmmunition => "ammunition (optional rule of other games)",
            };
            vec![
                Cell::new(&m.label),
                Cell::marked(signed(i32::from(m.value)), marked),
                Cell::new(if m.in_hsn { when.to_string() } else { format!("{when}; not in HSN") }),
            ]
        })
        .collect();
    chart.blocks.push(Block {
        caption: Some("Modifiers to the cavalry player's die".into()),
        groups: Vec::new(),
        columns: vec![Column::label("Modifier"), Column::value("die"), Column::label("depends on")],
        rows,
    });
    let divisor = (1..=60).find(|t| c.cavalry_retreat_reduction(0, *t) >= 1).unwrap_or(1);
    let losses: Vec<String> = (1..=6u8)
        .filter(|r| c.cavalry_retreat_loss(*r) > 0)
        .map(|r| format!("An unmodified {r} costs one retreating cavalry unit {} Manpower.", c.cavalry_retreat_loss(r)))
        .collect();
    chart.about = vec![format!(
        "When cavalry retreats before combat (GCACW 7.7), the cavalry player rolls one die, adds the modifiers \
         that apply, and divides by {divisor}, dropping fractions (never below 0): the active enemy unit's \
         Movement Allowance drops by that much. {}",
        losses.join(" ")
    )];
}

fn retreat(c: &Charts, chart: &mut Chart) {
    let captions = [
        "Retreat Chart 1: the first hex of a normal retreat, each of the first four hexes of a rout or cavalry \
         retreat, and any hex entered when leaving an enemy ZOC",
        "Retreat Chart 2: the other hexes (the second to fourth of a normal retreat, the fifth and sixth of a \
         rout or cavalry retreat)",
    ];
    for (number, caption) in [1u8, 2].into_iter().zip(captions) {
        let rows = c
            .retreat_chart(number)
            .iter()
            .map(|r| {
                let marked = is_reconstructed(&r.source);
                if marked {
                    add_footnote(chart, &format!("Chart {number}, priority {}", r.priority), &r.source, true);
                }
                let mut loss = r.loss.to_string();
                if let Some(l) = r.loss_across_route {
                    loss.push_str(&format!(", {l} along a route"));
                }
                if let Some(l) = r.loss_friendly_occupied {
                    loss.push_str(&format!(", {l} into friends"));
                }
                vec![
                    Cell::marked(r.priority.to_string(), marked),
                    Cell::marked(loss, marked),
                    Cell::new(&r.description),
                ]
            })
            .collect();
        chart.blocks.push(Block {
            caption: Some(caption.into()),
            groups: Vec::new(),
            columns: vec![Column::value("Priority"), Column::words("Manpower loss"), Column::label("Hex entered")],
            rows,
        });
    }
    chart.about =
        vec!["For each hex of a retreat the player finds the description of every hex he could enter and must take \
         one with the lowest priority number (equal numbers are a free choice) (GCACW 7.6). The loss is for each \
         retreating unit; along a route or into a hex friends hold, the smaller loss shown applies. Entering or \
         leaving a city hex counts as a road. A cavalry retreat ignores every loss but priority 5 (GCACW 7.7)."
            .into()];
}
