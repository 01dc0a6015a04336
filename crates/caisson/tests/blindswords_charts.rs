//! `caisson chart blind-swords`: every Blind Swords table laid out, reconstructed values marked
//! with the data file's reason, through the library and through the real binary.

use std::process::{Command, Output};

use caisson::blindswords::BlindSwords;
use caisson::charts::{self, Cell, Chart};
use caisson::Registry;

const BIN: &str = env!("CARGO_BIN_EXE_caisson");

fn caisson(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("caisson runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The cell of the column headed `column` in the row labelled `row`, in any table of the chart.
fn cell<'a>(chart: &'a Chart, column: &str, row: &str) -> Option<&'a Cell> {
    chart.blocks.iter().find_map(|b| {
        let i = b.columns.iter().position(|c| c.label == column)?;
        b.rows.iter().find(|r| r.first().is_some_and(|c| c.text == row))?.get(i)
    })
}

fn printed(chart: &Chart) -> String {
    let mut out = Vec::new();
    charts::write_chart(chart, &mut out).expect("written");
    text(&out)
}

#[test]
fn crt_shows_the_quoted_cells_and_marks_the_table_reconstructed() {
    let crt = BlindSwords.chart("crt").expect("the CRT");
    // SR 9.3 fire example: column 1, d66 61-62; SR 12.8 close combat example: column 3, 51-53.
    for (column, row, quoted) in [("1", "61-62", "- | 0-1 | 2-4"), ("3", "51-53", "- | 0 | 1-3")] {
        let c = cell(&crt, column, row).unwrap_or_else(|| panic!("no cell {column} × {row}"));
        assert_eq!(c.text, quoted, "column {column}, row {row}");
        assert!(c.reconstructed, "the CRT file is reconstructed: column {column}, row {row} is marked");
    }
    // Every column of SR 9.3, C to 23+, and every d66 row band.
    let labels: Vec<&str> =
        crt.blocks.iter().flat_map(|b| b.columns.iter().skip(1).map(|c| c.label.as_str())).collect();
    assert_eq!(labels, ["C", "1", "2", "3", "4", "5", "6-7", "8-9", "10-11", "12-14", "15-18", "19-22", "23+"]);
    assert!(crt.blocks.iter().all(|b| b.rows.len() == 10 && b.rows[0][0].text == "11-16" && b.rows[9][0].text == "66"));
    assert_eq!(crt.values(), 130);
    assert_eq!(crt.reconstructed(), 130);
    let out = printed(&crt);
    assert!(out.starts_with("Combat Results Table (SR 9.3, 11.3; EX 2.11)\n"), "{out}");
    let row = out.lines().find(|l| l.starts_with("61-62 ")).expect("the 61-62 row");
    assert!(row.contains("- | 0-1 | 2-4†"), "{row}");
    assert!(out.contains("† 130 of 130 values are reconstructed"), "{out}");
    assert!(out.contains("  † every cell: the printed CRT is not public"), "{out}");
    assert!(out.lines().all(|l| l.chars().count() <= charts::WIDTH), "{out}");
}

#[test]
fn every_chart_renders_and_its_marks_follow_its_file() {
    let infos = BlindSwords.charts().expect("the list");
    let names: Vec<&str> = infos.iter().map(|i| i.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "crt",
            "fire-cohesion",
            "close-cohesion",
            "break-test",
            "weapons",
            "terrain",
            "orders",
            "artillery-stacking",
            "activation",
            "general-casualty",
            "fog-of-war",
            "events",
            "buell"
        ]
    );
    for info in &infos {
        let chart = BlindSwords.chart(&info.name).unwrap_or_else(|e| panic!("{}: {e}", info.name));
        assert!(chart.values() > 0, "{}", info.name);
        assert!(!chart.source.is_empty() && info.rules.contains(' '), "{}", info.name);
        match info.source.as_str() {
            "reconstructed" => {
                assert!(chart.reconstructed() > 0, "{} is reconstructed but marks nothing", info.name);
                assert!(chart.footnotes.iter().all(|f| !f.reason.is_empty() && f.placed), "{}", info.name);
            }
            "rulebook section" => assert_eq!(chart.reconstructed(), 0, "{}", info.name),
            other => panic!("{}: unknown source kind {other}", info.name),
        }
        let out = printed(&chart);
        assert!(out.lines().count() > 5, "{}:\n{out}", info.name);
    }
    assert!(BlindSwords.chart("supply").is_err_and(|e| e.contains("the charts are: crt, fire-cohesion")));
}

#[test]
fn only_the_estimated_part_of_a_table_is_marked() {
    // Terrain: MP costs are estimated (ruling A-06), the shifts are EX 9.3 and 11.3c.
    let terrain = BlindSwords.chart("terrain").expect("terrain");
    let woods = cell(&terrain, "Cavalry", "woods").expect("woods, cavalry");
    assert_eq!((woods.text.as_str(), woods.reconstructed), ("3", true));
    let fire = cell(&terrain, "fire", "woods").expect("woods, fire");
    assert_eq!((fire.text.as_str(), fire.reconstructed), ("-2", false));
    let river = cell(&terrain, "retreat MH", "river").expect("river");
    assert_eq!(river.text, "yes");
    // Orders: the infantry and cavalry allowances are estimated (ruling A-02), the permissions not.
    let orders = BlindSwords.chart("orders").expect("orders");
    assert!(cell(&orders, "infantry", "Attack").is_some_and(|c| c.reconstructed));
    assert!(cell(&orders, "close combat", "Attack").is_some_and(|c| c.text == "yes" && !c.reconstructed));
    // Weapons: distances estimated, band factors given (SR 9.1c).
    let weapons = BlindSwords.chart("weapons").expect("weapons");
    assert!(cell(&weapons, "factor", "Canister").is_some_and(|c| c.text == "1.5" && !c.reconstructed));
    // Events: Rebel Yell! is the text's (EX 11.3c xvii); Sharpshooters has only its name there.
    let events = BlindSwords.chart("events").expect("events");
    assert!(cell(&events, "effect", "Rebel Yell!").is_some_and(|c| !c.reconstructed));
    assert!(cell(&events, "effect", "Sharpshooters").is_some_and(|c| c.reconstructed));
    assert!(events
        .footnotes
        .iter()
        .any(|f| f.items == ["Sharpshooters"] && f.reason == "only the name is in the text"));
    // Buell: the two box names the text gives are not marked, the later ones are.
    let buell = BlindSwords.chart("buell").expect("buell");
    assert!(cell(&buell, "name", "2").is_some_and(|c| c.text == "Buell hears artillery fire" && !c.reconstructed));
    assert!(cell(&buell, "name", "3").is_some_and(|c| c.reconstructed));
    // Break Test: the whole table is SR 12.6.
    let out = printed(&BlindSwords.chart("break-test").expect("break test"));
    assert!(out.contains("No value of this chart is reconstructed."), "{out}");
}

#[test]
fn the_binary_names_the_system_and_says_what_to_use() {
    let out = caisson(&["chart", "blind-swords"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let line = stdout.lines().find(|l| l.starts_with("crt ")).unwrap_or_default();
    assert!(line.contains("SR 9.3") && line.contains("reconstructed") && line.contains("all 130 values"), "{stdout}");
    assert!(stdout.contains("`caisson chart blind-swords <name>`"), "{stdout}");
    assert!(stdout.contains("other rule systems: `caisson chart gcacw`"), "{stdout}");
    let out = caisson(&["chart", "blind-swords", "crt"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("- | 0 | 1-3†"), "{}", text(&out.stdout));
    for (args, message) in [
        (&["chart", "crt"][..], "write `caisson chart blind-swords crt`"),
        (&["chart", "terrain"][..], "`caisson chart gcacw terrain` or `caisson chart blind-swords terrain`"),
        (&["chart", "blind-swords", "combat"][..], "no chart `combat` in blind-swords; the charts are: crt,"),
        (
            &["chart", "blind-swords", "crt", "--diff", "1", "--attacker-cv", "8", "--defender-cv", "7"][..],
            "print it with `caisson chart blind-swords crt`",
        ),
    ] {
        let out = caisson(args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: `{message}` not in {stderr}");
    }
}
