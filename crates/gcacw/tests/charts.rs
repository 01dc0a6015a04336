//! The GCACW charts as loaded from `data/gcacw/charts`, checked against the rulebook's worked
//! examples (digest §8) and the shared chart research.

use std::path::{Path, PathBuf};

use caisson_gcacw::charts::{
    ArtilleryModifier, AttackType, Charts, CombatResult, EmtResult, Half, MaxSituation, Mover, Parity, RetreatHex,
    Route, RouteNeed,
};
use caisson_gcacw::data::DataDir;
use caisson_gcacw::Side;
use caisson_hexmap::Terrain;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/gcacw/charts")
}

fn charts() -> Charts {
    match Charts::load(&DataDir::on_disk(&dir())) {
        Ok(c) => c,
        Err(e) => panic!("charts load: {e}"),
    }
}

fn h(x: f64) -> Half {
    // Test helper: exact for the halves used here.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Half::from_halves((x * 2.0) as u16)
}

// GCACW 7.2, 7.5: combat and movement quantities come in half points.
#[test]
fn half_arithmetic_and_display() {
    assert_eq!(Half::whole(3).to_string(), "3");
    assert_eq!(Half::from_halves(1).to_string(), "½");
    assert_eq!(Half::from_halves(3).to_string(), "1½");
    assert_eq!(Half::from_halves(23).ceil(), 12);
    assert_eq!(Half::from_halves(7).halves(), 7);
    assert_eq!(Half::whole(1) - Half::whole(2), Half::ZERO);
    assert_eq!(Half::from_halves(1) + Half::from_halves(1), Half::whole(1));
    assert!(Half::from_halves(7) > Half::whole(3));
}

// GCACW 7.4 and 7.5, HSN Combat Example (digest T5): Brown (8) attacks Wagner (7, rough).
#[test]
fn brown_attacks_wagner() {
    let c = charts();
    // Hasty attack: 1 MP for infantry, −1 (GCACW 6.1, 7.4).
    let hasty = c.attack_type(AttackType::Hasty);
    assert_eq!((hasty.infantry_mp, hasty.drm), (Half::whole(1), -1));
    // 8 to 7 rounds down to 1-1, modifier 0.
    assert_eq!(c.ratio(Half::whole(8), Half::whole(7)), ("1-1".to_string(), 0));
    // Artillery 2 − 2 = 0 against rough: "−1*", used only on an even die; the roll was 3.
    let art = c.artillery(0, Terrain::Rough);
    assert_eq!(art, ArtilleryModifier { value: -1, only_on: Some(Parity::Even), otherwise: 0 });
    assert_eq!(art.to_string(), "-1*");
    assert!(art.needs_roll());
    assert_eq!(art.resolve(3), 0);
    assert_eq!(art.resolve(4), -1);
    // −1 hasty + 0 ratio + 1 tactical + 2 flank = +2; rolls 4 + 2 − 2 = +4.
    let cells = c.combat(4, Half::whole(7), Half::whole(8));
    assert_eq!(cells.row, 4);
    assert_eq!(cells.defender_column, "7–11");
    assert_eq!(cells.attacker_column, "7–11");
    assert_eq!(cells.defender.to_string(), "1DR");
    assert_eq!(cells.attacker.to_string(), "fa");
    // Wagner: lose 1, disorganized, Fatigue +3, rout. Brown: Fatigue +1, march ends, advance.
    let d = cells.defender;
    assert!(d.loss == 1 && d.disorganize && d.rout && !d.retreat && !d.demoralize_2);
    assert_eq!(d.fatigue(), 3);
    let a = cells.attacker;
    assert!(a.loss == 0 && a.fatigue_1 && a.advance && !a.disorganize && a.ends_march());
    assert_eq!(a.fatigue(), 1);
    // GCACW 7.6: the rout used Priority 1 of Retreat Chart 1 every hex, with no loss.
    let hex = RetreatHex { farther: true, across_route: true, ..RetreatHex::default() };
    let row = c.retreat_description(1, &hex).expect("a description");
    assert_eq!((row.priority, row.loss_for(true, false)), (1, 0));
}

// GCACW 7.5 Hindman example (digest T6): Combat 8 under Breastworks is 16 for the ratio, but
// the defender still reads the 7–11 column.
#[test]
fn entrenchment_does_not_move_the_defender_column() {
    let c = charts();
    assert_eq!(c.combat(0, Half::whole(8), Half::whole(16)).defender_column, "7–11");
    assert_eq!(c.ratio(Half::whole(16), Half::whole(16)).0, "1-1");
    assert_eq!(c.ratio(Half::whole(8), Half::whole(16)), ("1-2".to_string(), -1));
}

// GCACW 7.5: a value between two columns (3½) rounds up by ½ into the right-hand column;
// rows beyond ≤−8 and ≥+10 read those rows.
#[test]
fn combat_columns_and_rows() {
    let c = charts();
    assert_eq!(c.combat(0, h(3.5), h(3.5)).defender_column, "4–6");
    assert_eq!(c.combat(0, h(0.5), h(0.5)).attacker_column, "½–3");
    assert_eq!(c.combat(0, h(11.5), h(69.5)).defender_column, "12–18");
    assert_eq!(c.combat(0, h(11.5), h(69.5)).attacker_column, "70+");
    assert_eq!(c.combat(0, Half::whole(200), Half::whole(200)).defender_column, "50+");
    let low = c.combat(-20, Half::whole(2), Half::whole(2));
    assert_eq!((low.row, low.attacker.to_string(), low.defender.to_string()), (-8, "3D".into(), "-".into()));
    let high = c.combat(15, Half::whole(2), Half::whole(2));
    assert_eq!((high.row, high.defender.to_string(), high.attacker.to_string()), (10, "3DR*".into(), "a".into()));
    assert!(high.defender.demoralize_2 && high.defender.rout);
    // A few cells of shared/data/gcacw/combat-chart.md.
    assert_eq!(c.combat(-1, Half::whole(20), Half::whole(5)).defender.to_string(), "1F");
    assert_eq!(c.combat(2, Half::whole(8), Half::whole(8)).defender.to_string(), "1Dr");
    assert_eq!(c.combat(5, Half::whole(8), Half::whole(20)).attacker.to_string(), "1Ea");
    assert!(c.combat(-3, Half::whole(5), Half::whole(5)).defender.is_no_effect());
}

// GCACW 7.5: the result codes read back as the chart prints them.
#[test]
fn combat_result_codes() {
    for code in ["-", "1", "2Dr", "fa", "3DR*", "1Fa", "Ea", "D", "12D"] {
        let r: CombatResult = code.parse().expect("parses");
        assert_eq!(r.to_string(), code);
    }
    for bad in ["", "X", "1D*", "DDa", "DrRa"] {
        assert!(bad.parse::<CombatResult>().is_err(), "{bad}");
    }
}

// GCACW 7.4 Ratio Chart, data points of shared/data/gcacw/charts-found.md §2.
#[test]
fn ratio_data_points() {
    let c = charts();
    assert_eq!(c.ratio(Half::whole(5), Half::whole(10)), ("1-2".to_string(), -1));
    assert_eq!(c.ratio(Half::whole(8), Half::whole(10)), ("1-2".to_string(), -1));
    assert_eq!(c.ratio(Half::whole(14), Half::whole(7)), ("2-1".to_string(), 1));
    assert_eq!(c.ratio(Half::whole(12), Half::whole(9)), ("1-1".to_string(), 0));
    // GTC example: nothing between 1-1 and 2-1 (13½ to 9 is still 1-1).
    assert_eq!(c.ratio(h(13.5), Half::whole(9)), ("1-1".to_string(), 0));
    assert_eq!(c.ratio(Half::whole(9), Half::whole(3)), ("3-1".to_string(), 2));
    assert_eq!(c.ratio(Half::whole(3), Half::whole(9)), ("1-3".to_string(), -2));
    // The official ends of the range are −12 and +13 (GCACW 7.4).
    assert_eq!(c.ratio(Half::whole(80), Half::whole(1)).1, 13);
    assert_eq!(c.ratio(h(0.5), Half::whole(70)).1, -12);
}

// GCACW 7.4 Artillery Modifier Summary, as printed in the rulebook.
#[test]
fn artillery_summary() {
    let c = charts();
    assert_eq!(c.artillery(-4, Terrain::Clear).value, -3);
    assert_eq!(c.artillery(-3, Terrain::Clear).value, -2);
    assert_eq!(c.artillery(1, Terrain::Clear).value, -2);
    assert_eq!(c.artillery(2, Terrain::Clear), ArtilleryModifier::NE);
    let dagger = c.artillery(8, Terrain::Clear);
    assert_eq!((dagger.to_string(), dagger.resolve(2), dagger.resolve(5)), ("+2†".to_string(), 2, 1));
    let rolling = c.artillery(6, Terrain::Rolling);
    assert_eq!((rolling.to_string(), rolling.resolve(1)), ("+1*".to_string(), 0));
    assert_eq!(c.artillery(9, Terrain::Hill).to_string(), "+1*");
    assert_eq!(c.artillery(-9, Terrain::Hill).to_string(), "-1");
    for t in [Terrain::Woods, Terrain::City, Terrain::Mountain, Terrain::Swamp] {
        assert_eq!(c.artillery(-9, t), ArtilleryModifier::NE);
        assert_eq!(c.artillery(9, t), ArtilleryModifier::NE);
    }
    // "•": provisional swamp in a dry turn reads Rough/Hill; in rain it is swamp (§).
    assert_eq!(c.artillery(0, Terrain::ProvisionalSwamp).to_string(), "-1*");
    let wet = c.effective_terrain(Terrain::ProvisionalSwamp, true);
    assert_eq!(c.artillery(0, wet), ArtilleryModifier::NE);
}

// GCACW 6.2 Enter Friendly-Occupied Hex (digest T20).
#[test]
fn friendly_occupied_penalty() {
    let c = charts();
    assert_eq!(c.occupied_penalty(Terrain::Woods, h(11.5), false, false), Half::whole(4));
    assert_eq!(c.occupied_penalty(Terrain::Clear, Half::ZERO, true, false), Half::whole(2));
    assert_eq!(c.occupied_penalty(Terrain::Clear, h(2.0), false, false), Half::ZERO);
    assert_eq!(c.occupied_penalty(Terrain::Woods, h(2.0), false, false), Half::ZERO);
    assert_eq!(c.occupied_penalty(Terrain::Clear, h(2.5), false, false), Half::whole(1));
    assert_eq!(c.occupied_penalty(Terrain::Hill, Half::whole(11), false, false), Half::whole(1));
    assert_eq!(c.occupied_penalty(Terrain::Rough, Half::whole(11), false, false), Half::whole(3));
    assert_eq!(c.occupied_penalty(Terrain::Mountain, Half::whole(12), true, false), Half::whole(4));
    assert_eq!(c.occupied_penalty(Terrain::ProvisionalSwamp, Half::whole(5), false, false), Half::whole(3));
    assert_eq!(c.occupied_penalty(Terrain::ProvisionalSwamp, Half::whole(5), false, true), Half::whole(3));
}

// GCACW 6.2 and 12.0 Terrain Chart: route costs, ridge, route-only terrain; HSN-A 4.0 rolling.
#[test]
fn terrain_and_routes() {
    let c = charts();
    assert_eq!(c.terrain_cost(Terrain::Rolling, false), Some(Half::whole(3)));
    assert_eq!(c.terrain_cost(Terrain::Rolling, true), Some(Half::whole(4)));
    for t in [Terrain::Clear, Terrain::Rough, Terrain::Woods, Terrain::City, Terrain::Hill] {
        let (dry, wet) = (c.terrain_cost(t, false).expect("cost"), c.terrain_cost(t, true).expect("cost"));
        assert!(wet > dry, "{t}: rain costs more (GCACW 12.0)");
    }
    assert_eq!(c.terrain_cost(Terrain::Swamp, false), None);
    assert_eq!(c.terrain_cost(Terrain::Mountain, false), None);
    assert_eq!(c.terrain_cost(Terrain::Water, false), None);
    assert!(c.impassable(Terrain::Water));
    assert_eq!(c.needs_route(Terrain::Swamp), Some(RouteNeed::RoadPikeRailroad));
    assert_eq!(c.needs_route(Terrain::Mountain), Some(RouteNeed::AnyRoute));
    assert_eq!(c.needs_route(Terrain::Woods), None);
    assert_eq!(c.terrain_cost(Terrain::ProvisionalSwamp, false), c.terrain_cost(Terrain::Rough, false));
    assert_eq!(c.terrain_cost(Terrain::ProvisionalSwamp, true), None);
    assert!(!c.route_allowed(Route::Trail, Terrain::Swamp, false));
    assert!(c.route_allowed(Route::Trail, Terrain::Mountain, false));
    assert!(!c.route_allowed(Route::Trail, Terrain::ProvisionalSwamp, true));
    assert!(c.route_allowed(Route::Road, Terrain::ProvisionalSwamp, true));
    assert!(!c.route_allowed(Route::Road, Terrain::Water, false));

    assert_eq!(c.route_cost(Route::Pike, Terrain::Woods, false), Half::whole(1));
    assert_eq!(c.route_cost(Route::Pike, Terrain::Woods, true), h(1.5));
    for r in [Route::Road, Route::Railroad] {
        assert_eq!(c.route_cost(r, Terrain::Clear, false), Half::whole(1));
        assert_eq!(c.route_cost(r, Terrain::Clear, true), Half::whole(2));
    }
    assert_eq!(c.route_cost(Route::Trail, Terrain::Clear, false), Half::whole(1));
    assert_eq!(c.route_cost(Route::Trail, Terrain::Clear, true), Half::whole(2));
    assert_eq!(c.route_cost(Route::Trail, Terrain::Mountain, false), Half::whole(2));
    assert_eq!(c.route_cost(Route::Trail, Terrain::Mountain, true), Half::whole(3));
    assert_eq!(c.route_cost(Route::Road, Terrain::Mountain, false), Half::whole(1));
    assert_eq!(c.ridge_extra(), Half::whole(1));
    // The floor of every step: a route hexside in dry weather.
    assert_eq!(c.cheapest_step(), Half::whole(1));
}

// GCACW 6.1 and 7.4: attack types.
#[test]
fn attack_types() {
    let c = charts();
    let got: Vec<_> = AttackType::ALL
        .iter()
        .map(|k| {
            let r = c.attack_type(*k);
            (r.infantry_mp.ceil(), r.cavalry_mp.ceil(), r.drm)
        })
        .collect();
    assert_eq!(got, vec![(0, 0, -3), (1, 2, -1), (2, 4, 0), (4, 8, 1)]);
    assert_eq!(c.attack_type(AttackType::ColumnOfRoute).min_ma, Half::whole(1));
}

// GCACW 5.1 and 5.2 (HSN values, digest §3.7); HSN-B 2.2 wagons.
#[test]
fn movement_allowances() {
    let c = charts();
    let ma = |s, m| c.movement_allowance(s, m).to_string();
    assert_eq!(ma(Side::Union, Mover::Infantry), "1d6");
    assert_eq!(ma(Side::Confederate, Mover::Infantry), "1d6+1");
    assert_eq!(ma(Side::Union, Mover::Cavalry), "2d6");
    assert_eq!(ma(Side::Confederate, Mover::Cavalry), "2d6+1");
    assert_eq!(ma(Side::Union, Mover::Wagon), "1d6");
    assert_eq!(ma(Side::Union, Mover::InfantryLeader), "1d6+1");
    assert_eq!(ma(Side::Confederate, Mover::InfantryLeader), "1d6+2");
    assert_eq!(ma(Side::Union, Mover::CavalryDivisionLeader), "2d6+1");
    assert_eq!(ma(Side::Confederate, Mover::CavalryDivisionLeader), "2d6+2");
    assert_eq!(ma(Side::Union, Mover::CavalryCorpsLeader), "2d6+2");
    assert_eq!(ma(Side::Confederate, Mover::CavalryCorpsLeader), "2d6+3");
}

// GCACW 5.1 March Example (digest T1): Newton, organized, rolls 4 + 1 = 5 → NE; 6 → D.
#[test]
fn extended_march_newton() {
    let c = charts();
    assert_eq!(c.extended_march(5, true, 7), EmtResult::NoEffect);
    assert_eq!(c.extended_march(6, true, 7), EmtResult::Disorganize);
    // Rolls beyond the first and last rows read those rows.
    assert_eq!(c.extended_march(0, true, 7), EmtResult::NoEffect);
    assert_eq!(c.extended_march(20, true, 7), c.extended_march(11, true, 7));
    // HSN Sc 7 example: 6 − 1 = 5 → No Effect, whatever the column.
    for m in 1..=11 {
        assert_eq!(c.extended_march(5, false, m), EmtResult::NoEffect);
        assert!(matches!(c.extended_march(6, false, m), EmtResult::Loss(_)));
    }
    assert_eq!(c.extended_march(6, false, 7).to_string(), "1");
}

// GCACW 2.2 and 7.2: the disorganized side's Combat value is smaller than the Manpower, can be
// ½, and is 3 for Manpower 5 (charts-found.md §6).
#[test]
fn disorganized_strength() {
    let c = charts();
    assert_eq!(c.disorganized_cv(5), Half::whole(3));
    assert_eq!(c.disorganized_cv(1), h(0.5));
    assert_eq!(c.disorganized_cv(0), Half::ZERO);
    let mut prev = Half::ZERO;
    for m in 1..=11u8 {
        let cv = c.disorganized_cv(m);
        assert!(cv < Half::whole(u16::from(m)) && cv >= prev, "manpower {m}");
        prev = cv;
    }
}

// GCACW 7.2 Maximum Values, "Other Games" column, and the grand-assault loss bands.
#[test]
fn maximum_values() {
    let c = charts();
    assert_eq!(c.maximum_values(MaxSituation::Attacking), Half::whole(80));
    assert_eq!(c.maximum_values(MaxSituation::Defending), Half::whole(70));
    assert_eq!(c.maximum_values(MaxSituation::defending(1, 2)), Half::whole(120));
    assert_eq!(c.maximum_values(MaxSituation::defending(3, 3)), Half::whole(160));
    assert_eq!(MaxSituation::defending(1, 3), MaxSituation::Defending);
    assert_eq!(c.grand_assault_extra_loss(Half::whole(79)), 0);
    assert_eq!(c.grand_assault_extra_loss(Half::whole(80)), 1);
    assert_eq!(c.grand_assault_extra_loss(Half::whole(95)), 2);
    assert_eq!(c.grand_assault_extra_loss(Half::whole(130)), 3);
}

// GCACW 7.7 Cavalry retreat (digest T16): halve the die, a natural 1 costs 1 Manpower.
#[test]
fn cavalry_retreat() {
    let c = charts();
    assert_eq!((c.cavalry_retreat_reduction(1, 0), c.cavalry_retreat_loss(1)), (0, 1));
    assert_eq!((c.cavalry_retreat_reduction(5, 0), c.cavalry_retreat_loss(5)), (2, 0));
    assert_eq!(c.cavalry_retreat_reduction(1, -3), 0);
    let ammo = c
        .cavalry_retreat_modifiers()
        .iter()
        .find(|m| m.label.contains("ammunition"))
        .expect("the GTC out-of-ammunition modifier is kept");
    assert_eq!((ammo.value, ammo.in_hsn), (-2, false));
    let base = c.cavalry_retreat_modifier(Terrain::Clear, false, 4, false);
    assert_eq!(c.cavalry_retreat_modifier(Terrain::Clear, false, 4, true), base - 2);
}

// GCACW 7.6 and 7.7: the retreat charts' known rows; enemy-occupied is Priority #5, −3.
#[test]
fn retreat_charts() {
    let c = charts();
    for chart in [1, 2] {
        let rows = c.retreat_chart(chart);
        assert!(!rows.is_empty());
        assert!(rows.windows(2).all(|w| w[0].priority <= w[1].priority));
        let hex = RetreatHex { enemy_occupied: true, enemy_zoc: true, ..RetreatHex::default() };
        let row = c.retreat_description(chart, &hex).expect("a description");
        assert_eq!((row.priority, row.loss_for(true, true)), (5, 3));
    }
    let no_road = RetreatHex { farther: true, ..RetreatHex::default() };
    let row = c.retreat_description(1, &no_road).expect("a description");
    assert_eq!((row.priority, row.loss), (2, 0));
    assert!(c.retreat_chart(3).is_empty());
}

/// Counts the items of a chart file whose effective `source` is a reconstruction: each row
/// (a table in an array of tables, inheriting its parents' source) and each other sub-table
/// with a reconstructed source of its own. Helper tables (bands and columns: a `label` with
/// bounds and no values) are not items.
fn reconstructed_items(table: &toml::Table, inherited: &str, counts: bool, found: &mut Vec<String>) -> usize {
    let source = table.get("source").and_then(toml::Value::as_str).unwrap_or(inherited);
    if source.starts_with("reconstructed") {
        found.push(source.to_string());
    }
    let mut n = usize::from(counts && source.starts_with("reconstructed: "));
    for v in table.values() {
        match v {
            toml::Value::Table(t) => {
                n += reconstructed_items(t, source, t.contains_key("source"), found);
            }
            toml::Value::Array(items) => {
                for t in items.iter().filter_map(toml::Value::as_table) {
                    let helper = t.contains_key("label") && !t.contains_key("value") && !t.contains_key("cells");
                    n += reconstructed_items(t, source, !helper, found);
                }
            }
            _ => {}
        }
    }
    n
}

// Data honesty: every reconstructed value is named in the start-of-game notice.
#[test]
fn every_reconstruction_is_listed() {
    let c = charts();
    let lines = c.reconstructed();
    assert!(lines.iter().all(|l| l.contains("— reconstructed: ")), "{lines:#?}");
    let mut expected = 0;
    for entry in std::fs::read_dir(dir()).expect("chart dir") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "toml") {
            let text = std::fs::read_to_string(&path).expect("read");
            let table: toml::Table = toml::from_str(&text).expect("parse");
            let mut found = Vec::new();
            let root = table.get("source").and_then(toml::Value::as_str).unwrap_or("");
            expected += reconstructed_items(&table, root, false, &mut found);
            for source in found {
                assert!(lines.iter().any(|l| l.ends_with(&source)), "{}: `{source}` missing", path.display());
            }
        }
    }
    assert_eq!(lines.len(), expected, "{lines:#?}");
    for m in 1..=11 {
        if m != 5 {
            let item = format!("disorganized Manpower {m} has Combat");
            assert!(lines.iter().any(|l| l.contains(&item)), "{item}");
        }
    }
    for t in ["clear", "rough", "woods", "city", "hill"] {
        assert!(lines.iter().any(|l| l.starts_with(&format!("Terrain Chart: {t} costs"))), "{t}");
    }
    assert!(lines.iter().any(|l| l.starts_with("Terrain Chart: woods costs 4 MP (rain 5) — reconstructed: ")));
}

/// A copy of the chart directory under the system temp dir, with one file changed.
fn broken_copy(name: &str, file: &str, edit: impl Fn(&str) -> String) -> (tempfile::TempDir, String) {
    let tmp = tempfile::Builder::new().prefix(&format!("caisson-charts-{name}-")).tempdir().expect("temp dir");
    let out = tmp.path();
    for entry in std::fs::read_dir(dir()).expect("chart dir") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("read");
        let fname = path.file_name().expect("name").to_string_lossy().to_string();
        let text = if fname == file { edit(&text) } else { text };
        std::fs::write(out.join(&fname), &text).expect("write");
    }
    let text = std::fs::read_to_string(out.join(file)).expect("read back");
    (tmp, text)
}

fn line_of(text: &str, needle: &str) -> usize {
    let at = text.find(needle).unwrap_or_else(|| panic!("`{needle}` not in file"));
    text[..at].matches('\n').count() + 1
}

fn load_error(dir: &Path) -> String {
    match Charts::load(&DataDir::on_disk(dir)) {
        Ok(_) => panic!("a broken chart loaded"),
        Err(e) => {
            eprintln!("{e}");
            e.to_string()
        }
    }
}

// Data loading (kernel data.rs): an unknown key is refused with file and line.
#[test]
fn unknown_key_names_file_and_line() {
    let (d, text) = broken_copy("key", "attack-types.toml", |t| t.replacen("drm = -1\n", "drm = -1\nmorale = 2\n", 1));
    let err = load_error(d.path());
    let want = format!("attack-types.toml:{}:", line_of(&text, "morale = 2"));
    assert!(err.contains(&want) && err.contains("morale"), "{err}");
}

// GCACW 12.0 pike 1½: only whole and half numbers are accepted.
#[test]
fn bad_fraction_names_file_and_line() {
    let (d, text) = broken_copy("fraction", "terrain.toml", |t| t.replacen("rain_cost = 1.5", "rain_cost = 0.3", 1));
    let err = load_error(d.path());
    let want = format!("terrain.toml:{}:", line_of(&text, "rain_cost = 0.3"));
    assert!(err.contains(&want) && err.contains("0.3"), "{err}");
}

// GCACW 2.2: every Manpower 1–11 needs a disorganized Combat value.
#[test]
fn missing_manpower_names_file_and_line() {
    let (d, text) = broken_copy("manpower", "strength.toml", |t| {
        t.replacen("[[row]]\nmanpower = 7\ndisorganized_cv = 5\n\n", "", 1)
    });
    assert!(!text.contains("manpower = 7"));
    let err = load_error(d.path());
    let want = format!("strength.toml:{}:", line_of(&text, "[[row]]\nmanpower = 8"));
    assert!(err.contains(&want) && err.contains("manpower 7"), "{err}");
}
