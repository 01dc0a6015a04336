//! The Blind Swords charts as `caisson chart blind-swords` shows them (SR v1.2 with Grand Havoc:
//! Perryville's exclusive rules).
//!
//! The loaded tables (`caisson_blindswords::charts::Charts`) keep only the lookups the rules
//! call, so each chart is laid out from the same file of `data/blind-swords/` the rules read,
//! after `Charts::load` has checked every file: what is printed is what the engine plays.
//!
//! Provenance is kept per file: a `source` naming rule sections and, when the printed table is
//! not public, a `reconstructed` reason. Where that reason names the estimated part of a table
//! (the MP costs of the Terrain Effects Chart, the distances of the Weapon Ranges Table, the
//! infantry and cavalry allowances of Brigade Order Details) only those values are marked;
//! otherwise every value of the table is marked and the footnote, the file's own reason, says
//! which few values the rulebook quotes. Event descriptions carry their own reasons and are
//! marked one by one.

use caisson_blindswords::charts::Charts;
use caisson_kernel::data::{parse_toml, DataDir};
use serde_json::Value;

use crate::charts::{Block, Cell, Chart, ChartInfo, Column, Footnote};

/// A chart: its command-line name, data file, title, purpose and rule sections.
struct Def {
    name: &'static str,
    file: &'static str,
    title: &'static str,
    purpose: &'static str,
    rules: &'static str,
    build: fn(&Value, &mut Chart),
}

const DEFS: [Def; 13] = [
    Def {
        name: "crt",
        file: "crt.toml",
        title: "Combat Results Table",
        purpose: "the Cohesion Test a fire or close combat calls for",
        rules: "SR 9.3, 11.3; EX 2.11",
        build: crt,
    },
    Def {
        name: "fire-cohesion",
        file: "cohesion.toml",
        title: "Fire Combat Cohesion Test Table",
        purpose: "depletion and skedaddle after fire",
        rules: "SR 12.0, 12.1",
        build: fire_cohesion,
    },
    Def {
        name: "close-cohesion",
        file: "cohesion.toml",
        title: "Close Combat Cohesion Test Table",
        purpose: "depletion and skedaddle after close combat",
        rules: "SR 12.0, 12.2",
        build: close_cohesion,
    },
    Def {
        name: "break-test",
        file: "break-test.toml",
        title: "Break Test Table",
        purpose: "whether a unit holds or breaks",
        rules: "SR 12.6",
        build: break_test,
    },
    Def {
        name: "weapons",
        file: "weapons.toml",
        title: "Weapon Ranges Table",
        purpose: "range bands of each weapon and their fire factors",
        rules: "SR 9.1c; EX 2.1a",
        build: weapons,
    },
    Def {
        name: "terrain",
        file: "terrain.toml",
        title: "Terrain Effects Chart",
        purpose: "MP costs, column shifts and support of each terrain",
        rules: "SR 10.3; EX 2.10, 9.3, 11.3c, 12.4",
        build: terrain,
    },
    Def {
        name: "orders",
        file: "orders.toml",
        title: "Brigade Order Details",
        purpose: "what each order lets a brigade do",
        rules: "SR 8.2-8.5, 10.2; EX 6.0",
        build: orders,
    },
    Def {
        name: "artillery-stacking",
        file: "artillery-stacking.toml",
        title: "Artillery Stacking Table",
        purpose: "stacking points of a battery's guns",
        rules: "SR 3.1a",
        build: artillery_stacking,
    },
    Def {
        name: "activation",
        file: "activation.toml",
        title: "Activation roll",
        purpose: "Full or Limited Activation of a brigade",
        rules: "SR 7.3; EX 7.3; ruling A-01",
        build: activation,
    },
    Def {
        name: "general-casualty",
        file: "general-casualty.toml",
        title: "General Casualty Table",
        purpose: "which general a d66 roll strikes",
        rules: "EX 7.3b",
        build: general_casualty,
    },
    Def {
        name: "fog-of-war",
        file: "fog-of-war.toml",
        title: "Fog of War Chit Table",
        purpose: "what a Fog of War chit does",
        rules: "EX 7.3b errata",
        build: fog_of_war,
    },
    Def {
        name: "events",
        file: "events.toml",
        title: "Unique Event Descriptions and Command Confusion",
        purpose: "what each event chit does",
        rules: "SR 7.3, 14.1; EX 5.2, 11.3c",
        build: events,
    },
    Def {
        name: "buell",
        file: "buell-track.toml",
        title: "Buell Alert Track",
        purpose: "Buell's march to the field and the brigades it releases",
        rules: "EX 2.12, 7.5, 14.2",
        build: buell,
    },
];

/// Every Blind Swords chart, in the order `caisson chart blind-swords` lists them.
///
/// # Errors
/// A data file cannot be read or breaks a check.
pub fn infos() -> Result<Vec<ChartInfo>, String> {
    DEFS.iter()
        .map(|d| {
            let (_, reconstructed) = provenance(&file(d.file)?);
            let source = if reconstructed.is_some() { "reconstructed" } else { "rulebook section" };
            Ok(ChartInfo {
                name: d.name.into(),
                title: d.title.into(),
                purpose: d.purpose.into(),
                rules: d.rules.into(),
                source: source.into(),
            })
        })
        .collect()
}

/// One chart laid out as tables.
///
/// # Errors
/// Unknown chart, or a data file that cannot be read or breaks a check.
pub fn chart(name: &str) -> Result<Chart, String> {
    let Some(def) = DEFS.iter().find(|d| d.name == name) else {
        let names: Vec<&str> = DEFS.iter().map(|d| d.name).collect();
        return Err(format!("no Blind Swords chart `{name}`; the charts are: {}", names.join(", ")));
    };
    // The same checks the rules make before they play: a file they would refuse is not shown.
    Charts::load(&DataDir::builtin()).map_err(|e| e.to_string())?;
    let data = file(def.file)?;
    let (source, _) = provenance(&data);
    let mut chart = Chart { title: def.title.into(), rules: def.rules.into(), source, mark: '†', ..Chart::default() };
    (def.build)(&data, &mut chart);
    Ok(chart)
}

/// A data file of `data/blind-swords/` as a tree of values.
fn file(name: &str) -> Result<Value, String> {
    let path = DataDir::builtin().join(caisson_blindswords::charts::DIR).join(name);
    let text = path.read().map_err(|e| e.to_string())?;
    parse_toml::<Value>(&text, &path.display()).map_err(|e| e.to_string())
}

/// A file's `source` and `reconstructed` reason.
fn provenance(data: &Value) -> (String, Option<String>) {
    let source = text(&data["source"]);
    let reason = data.get("reconstructed").map(text);
    (source, reason)
}

/// A value as the charts print it: strings as written, numbers without a needless ".0",
/// booleans as yes and no, nothing as "".
fn text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => {
            n.as_i64().map_or_else(|| n.as_f64().map_or_else(String::new, |f| f.to_string()), |i| i.to_string())
        }
        Value::Bool(b) => (if *b { "yes" } else { "no" }).into(),
        Value::Array(items) => items.iter().map(text).collect::<Vec<_>>().join(", "),
        Value::Null | Value::Object(_) => String::new(),
    }
}

/// The items of an array field (none if missing).
fn list<'a>(data: &'a Value, key: &str) -> &'a [Value] {
    data.get(key).and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// Adds the file's reason as the footnote of the marked `items`, if the file has one and some
/// value was marked.
fn footnote(chart: &mut Chart, data: &Value, items: &str) {
    if let Some(reason) = provenance(data).1 {
        if chart.reconstructed() > 0 {
            chart.footnotes.push(Footnote { items: vec![items.into()], reason, placed: true });
        }
    }
}

/// Whether the file is reconstructed.
fn estimated(data: &Value) -> bool {
    provenance(data).1.is_some()
}

// ---------------------------------------------------------------------------------------------

/// SR 9.3: columns of fire strength, rows of d66 bands, three Cohesion Rating boxes a cell.
fn crt(data: &Value, chart: &mut Chart) {
    const PER_BLOCK: usize = 5;
    let marked = estimated(data);
    let rows: Vec<String> = list(data, "rows").iter().map(text).collect();
    let columns = list(data, "column");
    chart.about = vec!["Find the column of the firing or attacking strength in SP (\"C\" is half an SP) after its \
         shifts, roll d66 (coloured die tens, white die units) for the row. A cell is \"-\" or three \
         boxes, Severe | Tough | Routine (red, yellow, green): the box holding the Lead Unit's modified \
         Cohesion Rating names the Cohesion Test it takes; a rating in no box, or a \"-\" cell, is no \
         effect in Fire Combat and a Close Fight in Close Combat (SR 9.3b, 11.0)."
        .into()];
    for chunk in columns.chunks(PER_BLOCK) {
        let mut cols = vec![Column::label("d66")];
        cols.extend(chunk.iter().map(|c| Column::value(text(&c["label"])).ruled()));
        let body = rows
            .iter()
            .enumerate()
            .map(|(r, band)| {
                let mut row = vec![Cell::new(band)];
                row.extend(
                    chunk.iter().map(|c| Cell::marked(list(c, "cells").get(r).map(text).unwrap_or_default(), marked)),
                );
                row
            })
            .collect();
        chart.blocks.push(Block {
            caption: None,
            groups: vec![(String::new(), 1), ("SP".into(), chunk.len())],
            columns: cols,
            rows: body,
        });
    }
    chart.legend = vec![
        ("S | T | R".into(), "Severe | Tough | Routine test for a Lead Unit of that modified Cohesion Rating".into()),
        ("-".into(), "no test (a Close Fight in Close Combat)".into()),
    ];
    footnote(chart, data, "every cell");
}

/// SR 12.1: the fire table.
fn fire_cohesion(data: &Value, chart: &mut Chart) {
    cohesion(data, "fire", &["routine", "tough", "severe"], chart);
    chart.legend.retain(|(code, _)| !["AD", "BD*", "AMH", "AR#", "RA#"].contains(&code.as_str()));
    chart.legend.push(("RA#".into(), "read as R#: a fire result moves only the Lead Unit (SR 12.1)".into()));
}

/// SR 12.2: the close combat table.
fn close_cohesion(data: &Value, chart: &mut Chart) {
    cohesion(data, "close", &["close-fight", "routine", "tough", "severe"], chart);
    chart.legend.retain(|(code, _)| code != "R#");
}

/// SR 12.0: one section per test, the coloured die reads Depletion, the white die Skedaddle.
fn cohesion(data: &Value, table: &str, sections: &[&str], chart: &mut Chart) {
    let marked = estimated(data);
    chart.about = vec!["The owner of the tested units rolls two dice in the section the CRT named: the coloured die \
         reads the Depletion column, the white die the Skedaddle column. Skedaddle results apply left \
         to right."
        .into()];
    let mut cols = vec![Column::label("die")];
    let mut groups = vec![(String::new(), 1)];
    for s in sections {
        groups.push((if *s == "close-fight" { "Close Fight".into() } else { title_case(s) }, 2));
        cols.push(Column::words("Depletion").ruled());
        cols.push(Column::words("Skedaddle"));
    }
    let rows = (0..6)
        .map(|face| {
            let mut row = vec![Cell::new((face + 1).to_string())];
            for s in sections {
                let section = &data[table][*s];
                for field in ["depletion", "skedaddle"] {
                    row.push(Cell::marked(list(section, field).get(face).map(text).unwrap_or_default(), marked));
                }
            }
            row
        })
        .collect();
    chart.blocks.push(Block { caption: None, groups, columns: cols, rows });
    chart.legend = [
        ("-", "no effect"),
        ("D, D2, D all", "the Lead Unit (or every defender) depletes one step, two steps, all steps"),
        ("AD", "the attacker's largest unit depletes"),
        ("BD*", "both sides deplete"),
        ("MH, 2MH", "one or two Morale Hits on the Lead Unit"),
        ("AMH", "one Morale Hit on the attacker's largest unit"),
        ("BT", "Break Test (SR 12.6)"),
        ("R#", "the Lead Unit retreats # hexes"),
        ("RA#", "every defender retreats # hexes"),
        ("AR#", "the attacker's largest unit retreats # hexes"),
        ("(P#)", "Panic of that level among nearby friends (SR 12.7)"),
    ]
    .into_iter()
    .map(|(c, m)| (c.to_string(), m.to_string()))
    .collect();
    footnote(chart, data, "every result");
}

/// SR 12.6: one die minus the modified Cohesion Rating.
fn break_test(data: &Value, chart: &mut Chart) {
    let marked = estimated(data);
    chart.about = vec!["Roll one die and subtract the testing unit's modified Cohesion Rating.".into()];
    let rows = list(data, "row")
        .iter()
        .map(|r| {
            let (min, max) =
                (r["over"].get("min").and_then(Value::as_i64), r["over"].get("max").and_then(Value::as_i64));
            let over = match (min, max) {
                (None, Some(m)) => format!("{m} or less"),
                (Some(m), None) => format!("{m} or more"),
                (Some(a), Some(b)) if a == b => a.to_string(),
                (Some(a), Some(b)) => format!("{a} to {b}"),
                (None, None) => "any".into(),
            };
            let result = match text(&r["result"]).as_str() {
                "hold" => "holds: Shaken (a Shaken unit becomes Disrupted)".to_string(),
                other => match other.strip_prefix("broken-") {
                    Some(n) => format!("breaks: Broken Track box {n}"),
                    None => other.to_string(),
                },
            };
            vec![Cell::new(over), Cell::marked(result, marked)]
        })
        .collect();
    chart.blocks.push(Block {
        caption: None,
        groups: Vec::new(),
        columns: vec![Column::label("roll minus rating"), Column::words("result")],
        rows,
    });
    chart.legend = vec![(
        String::new(),
        "A broken unit loses its markers and goes Battleworn side up to the box named; Artillery and \
         Fragile units are eliminated instead (SR 12.6, 12.8)."
            .into(),
    )];
    footnote(chart, data, "every result");
}

/// SR 9.1c, EX 2.1a: the fire factor of each band, then the last hex of each band per weapon.
fn weapons(data: &Value, chart: &mut Chart) {
    let marked = estimated(data);
    const BANDS: [&str; 4] = ["canister", "effective", "long", "extreme"];
    chart.about = vec!["A weapon fires at the band its target's distance falls in: each number is the last hex of \
         that band, a blank band is none. The band's factor multiplies the firing SP."
        .into()];
    chart.blocks.push(Block {
        caption: Some("Fire factor of each range band".into()),
        groups: Vec::new(),
        columns: vec![Column::label("band"), Column::value("factor")],
        rows: BANDS.iter().map(|b| vec![Cell::new(title_case(b)), Cell::new(text(&data["factors"][*b]))]).collect(),
    });
    let mut cols = vec![Column::label("arm"), Column::label("code"), Column::label("weapon")];
    cols.extend(BANDS.iter().map(|b| Column::value(title_case(b))));
    cols[3] = cols[3].clone().ruled();
    let rows = list(data, "weapon")
        .iter()
        .map(|w| {
            let mut row =
                vec![Cell::new(title_case(&text(&w["arm"]))), Cell::new(text(&w["code"])), Cell::new(text(&w["name"]))];
            row.extend(BANDS.iter().map(|b| {
                let v = w.get(*b).map(text).unwrap_or_default();
                let m = marked && !v.is_empty();
                Cell::marked(v, m)
            }));
            row
        })
        .collect();
    chart.blocks.push(Block {
        caption: Some("Last hex of each band".into()),
        groups: vec![(String::new(), 3), ("hexes".into(), BANDS.len())],
        columns: cols,
        rows,
    });
    footnote(chart, data, "every distance");
}

/// SR 10.3, EX 2.10: MP by mover, then the combat effects, of hexes and hexsides.
fn terrain(data: &Value, chart: &mut Chart) {
    let marked = estimated(data);
    const MOVERS: [&str; 3] = ["infantry", "cavalry", "artillery"];
    chart.about = vec!["A unit pays the MP of the hex it enters plus those of the hexside it crosses (SR 10.3); P is \
         prohibited. A slope costs its uphill figure going up and its downhill figure going down. Shifts \
         move the CRT column left; Support \"no\" means units there neither give nor get Unit Support \
         (EX 12.4)."
        .into()];
    let cost = |v: Option<&Value>| v.map(text).unwrap_or_default();
    for (key, caption) in [("hex", "Hex terrain"), ("hexside", "Hexside features")] {
        let mut cols = vec![Column::label(if key == "hex" { "terrain" } else { "feature" })];
        let mut groups = vec![(String::new(), 1), ("MP".into(), 3)];
        cols.extend(MOVERS.iter().map(|m| Column::value(title_case(m))));
        cols[1] = cols[1].clone().ruled();
        // A hex gives or denies Unit Support; a hexside may cost a retreat a Morale Hit.
        let hex = key == "hex";
        groups.push(("effects".into(), 3));
        cols.push(Column::value("fire").ruled());
        cols.push(Column::value("close combat"));
        cols.push(Column::words(if hex { "support" } else { "retreat MH" }));
        let mut rows = Vec::new();
        for t in list(data, key) {
            let name = text(&t["name"]);
            let variants: Vec<(String, &Value)> = if t.get("cost").is_some() {
                vec![(name, &t["cost"])]
            } else {
                vec![(format!("{name} (uphill)"), &t["uphill"]), (format!("{name} (downhill)"), &t["downhill"])]
            };
            for (k, (name, costs)) in variants.into_iter().enumerate() {
                let mut row = vec![Cell::new(name)];
                row.extend(MOVERS.iter().map(|m| Cell::marked(cost(costs.get(*m)), marked)));
                if k == 0 {
                    row.push(Cell::new(t.get("fire").map_or_else(|| "0".into(), signed)));
                    row.push(Cell::new(t.get("close_combat").map_or_else(|| "0".into(), signed)));
                    let flag = if hex { ("support", "yes") } else { ("retreat_morale_hit", "no") };
                    row.push(Cell::new(t.get(flag.0).map_or_else(|| flag.1.into(), text)));
                }
                rows.push(row);
            }
        }
        chart.blocks.push(Block { caption: Some(caption.into()), groups, columns: cols, rows });
    }
    let movement = data["movement"].as_object().map(|m| {
        [
            ("road", "MP a hex along a trail or road"),
            ("march_column", "MP a road hex in march column (Maneuver order)"),
            ("artillery_road", "MP a road hex for artillery"),
            ("congested_road", "MP a road hex for artillery over-stacking in woods or steep slope"),
            ("skirmish_entry", "MP to enter skirmish order"),
            ("skirmish_discount", "MP less a hex for skirmishers"),
            ("skirmish_minimum", "least MP a hex for skirmishers"),
            ("skirmish_screen", "extra MP for an enemy moving next to a skirmisher"),
            ("off_map", "MP to leave the map"),
            ("night_factor", "terrain costs multiplied at night (not road movement)"),
        ]
        .into_iter()
        .filter_map(|(k, what)| m.get(k).map(|v| vec![Cell::new(what), Cell::new(text(v))]))
        .collect::<Vec<_>>()
    });
    chart.blocks.push(Block {
        caption: Some("Movement".into()),
        groups: Vec::new(),
        columns: vec![Column::label("rule"), Column::value("value")],
        rows: movement.unwrap_or_default(),
    });
    footnote(chart, data, "every MP cost of a hex or hexside");
}

/// A shift as the chart prints it: "-2", "0", "+1".
fn signed(v: &Value) -> String {
    v.as_i64().and_then(|n| i32::try_from(n).ok()).map_or_else(|| text(v), crate::charts::signed)
}

/// SR 8.2-8.5, 10.2, EX 6.0: what each order allows.
fn orders(data: &Value, chart: &mut Chart) {
    let marked = estimated(data);
    chart.about = vec!["A brigade's order sets its units' Movement Allowance and what they may do this activation. \
         Artillery moves by its own allowance under any order that lets it move."
        .into()];
    let rows = list(data, "order")
        .iter()
        .map(|o| {
            vec![
                Cell::new(title_case(&text(&o["name"]))),
                Cell::marked(text(&o["infantry"]), marked),
                Cell::marked(text(&o["cavalry"]), marked),
                Cell::new(text(&o["engage"])),
                Cell::new(text(&o["fire"])),
                Cell::new(text(&o["close_combat"])),
                Cell::new(text(&o["rally"])),
                Cell::new(text(&o["march_column"])),
            ]
        })
        .collect();
    chart.blocks.push(Block {
        caption: None,
        groups: vec![(String::new(), 1), ("MA".into(), 2), ("may".into(), 5)],
        columns: vec![
            Column::label("order"),
            Column::value("infantry").ruled(),
            Column::value("cavalry"),
            Column::words("engage").ruled(),
            Column::words("fire"),
            Column::words("close combat"),
            Column::words("rally"),
            Column::words("march column"),
        ],
        rows,
    });
    chart.blocks.push(Block {
        caption: Some("Artillery Movement Allowance".into()),
        groups: Vec::new(),
        columns: vec![Column::label("battery"), Column::value("MA")],
        rows: ["foot", "horse"]
            .iter()
            .map(|k| vec![Cell::new(format!("{} artillery", title_case(k))), Cell::new(text(&data["artillery"][*k]))])
            .collect(),
    });
    chart.legend = vec![("rally".into(), "none; one step of recovery (one); a full rally (full) (SR 13)".into())];
    footnote(chart, data, "the infantry and cavalry Movement Allowance of each order");
}

/// SR 3.1a: stacking points of guns.
fn artillery_stacking(data: &Value, chart: &mut Chart) {
    let marked = estimated(data);
    chart.about = vec!["A battery counts toward stacking by the SP of its guns, as read here.".into()];
    let mut rows: Vec<Vec<Cell>> = list(data, "rows")
        .iter()
        .map(|r| vec![Cell::new(text(&r["guns"])), Cell::marked(text(&r["stacking"]), marked)])
        .collect();
    if let Some(extra) = data.get("extra_per_sp") {
        let last = list(data, "rows").last().map(|r| text(&r["guns"])).unwrap_or_default();
        rows.push(vec![Cell::new(format!("each SP above {last}")), Cell::marked(format!("+{}", text(extra)), marked)]);
    }
    chart.blocks.push(Block {
        caption: None,
        groups: Vec::new(),
        columns: vec![Column::label("SP of guns"), Column::value("stacking points")],
        rows,
    });
    footnote(chart, data, "every stacking value");
}

/// SR 7.3, EX 7.3 (ruling A-01): the roll and what a Limited Activation allows.
fn activation(data: &Value, chart: &mut Chart) {
    let marked = estimated(data);
    chart.about =
        vec!["The owner of a drawn Division Activation Chit picks a brigade and rolls; the modified roll at \
         most the chit's Command Rating is a Full Activation (any order), otherwise a Limited one."
            .into()];
    chart.blocks.push(Block {
        caption: Some("The roll".into()),
        groups: Vec::new(),
        columns: vec![Column::label("item"), Column::value("value")],
        rows: [
            ("die", "die"),
            ("always_full", "unmodified roll always Full"),
            ("always_limited", "unmodified roll always Limited"),
        ]
        .iter()
        .map(|(k, what)| vec![Cell::new(*what), Cell::marked(text(&data[*k]), marked)])
        .collect(),
    });
    let limited = &data["limited"];
    chart.blocks.push(Block {
        caption: Some("A Limited Activation may".into()),
        groups: Vec::new(),
        columns: vec![Column::label("action"), Column::words("allowed")],
        rows: [
            ("fire", "fire"),
            ("movement", "move"),
            ("close_combat", "close combat"),
            ("rally", "rally"),
            ("reinforcements", "bring in reinforcements"),
        ]
        .iter()
        .map(|(k, what)| vec![Cell::new(*what), Cell::marked(text(&limited[*k]), marked)])
        .collect(),
    });
    footnote(chart, data, "every value");
}

/// EX 7.3b: which general a d66 roll strikes.
fn general_casualty(data: &Value, chart: &mut Chart) {
    let marked = estimated(data);
    chart.about = vec!["Roll d66 (coloured die tens, white die units); the general named is struck.".into()];
    let rows = list(data, "rows")
        .iter()
        .map(|r| {
            let g = text(&r["general"]);
            let g = if g == "none" { "no general".to_string() } else { g };
            vec![Cell::new(text(&r["d66"])), Cell::marked(g, marked)]
        })
        .collect();
    chart.blocks.push(Block {
        caption: None,
        groups: Vec::new(),
        columns: vec![Column::label("d66"), Column::words("general")],
        rows,
    });
    footnote(chart, data, "every general's rolls");
}

/// EX 7.3b errata: one die, with the overrides of some scenarios.
fn fog_of_war(data: &Value, chart: &mut Chart) {
    let marked = estimated(data);
    chart.about = vec!["Roll one die when the Fog of War chit is drawn.".into()];
    let rows = list(data, "rolls")
        .iter()
        .enumerate()
        .map(|(i, r)| vec![Cell::new((i + 1).to_string()), Cell::marked(words(&text(r)), marked)])
        .collect();
    chart.blocks.push(Block {
        caption: None,
        groups: Vec::new(),
        columns: vec![Column::label("die"), Column::words("result")],
        rows,
    });
    let overrides: Vec<Vec<Cell>> = list(data, "override")
        .iter()
        .map(|o| {
            vec![
                Cell::new(format!("scenario {}", text(&o["scenario"]))),
                Cell::new(text(&o["roll"])),
                Cell::marked(words(&text(&o["result"])), marked),
            ]
        })
        .collect();
    if !overrides.is_empty() {
        chart.blocks.push(Block {
            caption: Some("Scenario overrides".into()),
            groups: Vec::new(),
            columns: vec![Column::label("scenario"), Column::label("die"), Column::words("result")],
            rows: overrides,
        });
    }
    footnote(chart, data, "every result");
}

/// SR 7.3, EX 11.3c: each event chit and the Command Confusion table.
fn events(data: &Value, chart: &mut Chart) {
    chart.about = vec!["Held events are kept face down and played at a fitting moment (SR 14.1); a once event leaves \
         play after use (EX 5.2). The descriptions are in our own words; where the rulebook gives only \
         part of an effect the description is marked and its reason given."
        .into()];
    let mut rows = Vec::new();
    for e in list(data, "event") {
        let reason = e.get("reconstructed").map(text);
        let once = e.get("once").and_then(Value::as_bool).unwrap_or(false);
        let timing = format!("{}{}", text(&e["timing"]), if once { ", once" } else { "" });
        rows.push(vec![
            Cell::new(text(&e["name"])),
            Cell::new(title_case(&text(&e["side"]))),
            Cell::new(timing),
            Cell::marked(text(&e["effect"]), reason.is_some()),
        ]);
        if let Some(reason) = reason {
            chart.footnotes.push(Footnote { items: vec![text(&e["name"])], reason, placed: true });
        }
    }
    chart.blocks.push(Block {
        caption: None,
        groups: Vec::new(),
        columns: vec![Column::label("event"), Column::label("side"), Column::label("timing"), Column::words("effect")],
        rows,
    });
    let marked = estimated(data);
    let confusion: Vec<Vec<Cell>> = list(data, "command_confusion")
        .iter()
        .enumerate()
        .map(|(i, o)| vec![Cell::new((i + 1).to_string()), Cell::marked(title_case(&text(o)), marked)])
        .collect();
    chart.blocks.push(Block {
        caption: Some("Command Confusion: one die for the brigade's new order".into()),
        groups: Vec::new(),
        columns: vec![Column::label("die"), Column::words("order")],
        rows: confusion,
    });
    if let Some(reason) = provenance(data).1 {
        if marked {
            chart.footnotes.push(Footnote { items: vec!["Command Confusion orders".into()], reason, placed: true });
        }
    }
}

/// EX 2.12, 7.5, 14.2: the boxes of the track, the roll and its modifiers.
fn buell(data: &Value, chart: &mut Chart) {
    let marked = estimated(data);
    chart.about = vec![format!(
        "After the Victory Point Awards the Union rolls {} plus the modifiers below; {} or more moves \
         the Buell Marker one box right, and entering a box releases that many On Hold brigades of the \
         corps named, chosen by the Union (EX 14.2).",
        text(&data["die"]),
        text(&data["threshold"])
    )];
    // The reason quotes the last box the text names; the names after it are estimated.
    let boxes = list(data, "box");
    let reason = provenance(data).1.unwrap_or_default();
    let quoted = boxes.iter().rposition(|b| reason.contains(&format!("\"{}\"", text(&b["name"]))));
    let rows = boxes
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let count = text(&b["count"]);
            let count = if count == "0" { "none".to_string() } else { count };
            let corps = list(b, "corps").iter().map(|c| corps_name(&text(c))).collect::<Vec<_>>().join(", ");
            let named = marked && quoted.is_none_or(|q| i > q);
            let has_corps = !corps.is_empty();
            vec![
                Cell::new((i + 1).to_string()),
                Cell::marked(text(&b["name"]), named),
                Cell::marked(count, marked),
                Cell::marked(corps, marked && has_corps),
            ]
        })
        .collect();
    chart.blocks.push(Block {
        caption: Some("Boxes".into()),
        groups: Vec::new(),
        columns: vec![
            Column::label("box"),
            Column::words("name"),
            Column::words("releases"),
            Column::words("of the corps"),
        ],
        rows,
    });
    chart.blocks.push(Block {
        caption: Some("Modifiers to the roll".into()),
        groups: Vec::new(),
        columns: vec![Column::label("when"), Column::value("modifier")],
        rows: list(data, "modifier")
            .iter()
            .map(|m| vec![Cell::new(words(&text(&m["id"]))), Cell::new(signed(&m["value"]))])
            .collect(),
    });
    footnote(chart, data, "every box's name and releases");
}

/// "iii-corps" → "III Corps".
fn corps_name(s: &str) -> String {
    match s.split_once('-') {
        Some((number, rest)) => format!("{} {}", number.to_uppercase(), title_case(rest)),
        None => s.to_string(),
    }
}

/// "small-arms" → "Small arms".
fn title_case(s: &str) -> String {
    let w = words(s);
    let mut chars = w.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// "wayward-union-move" → "wayward union move".
fn words(s: &str) -> String {
    s.replace(['-', '_'], " ")
}
