//! The Perryville counters, commands and chits (`data/perryville`), checked against the scale of
//! EX 2.9, the chit lists of EX 7.3 and the scenarios, and the loader's refusal of broken files.

use std::path::{Path, PathBuf};

use caisson_blindswords::catalog::{Catalog, ChitKind, Owner, Side, Sp, UnitType, Weapon};
use caisson_kernel::data::DataDir;
use tempfile::TempDir;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/perryville")
}

fn catalog() -> Catalog {
    match Catalog::load(&DataDir::builtin().join("perryville")) {
        Ok(c) => c,
        Err(e) => panic!("catalog load: {e}"),
    }
}

/// A copy of `data/perryville`'s three catalog files under the temp dir, with one file edited.
fn broken_copy(name: &str, file: &str, edit: impl Fn(&str) -> String) -> (TempDir, String) {
    let tmp = tempfile::Builder::new().prefix(&format!("caisson-pv-catalog-{name}-")).tempdir().expect("temp dir");
    let out = tmp.path();
    for f in ["counters.csv", "commands.toml", "chits.toml"] {
        let text = std::fs::read_to_string(dir().join(f)).expect("read");
        let text = if f == file { edit(&text) } else { text };
        std::fs::write(out.join(f), &text).expect("write");
    }
    let text = std::fs::read_to_string(out.join(file)).expect("read back");
    (tmp, text)
}

fn line_of(text: &str, needle: &str) -> usize {
    let at = text.find(needle).unwrap_or_else(|| panic!("`{needle}` not in file"));
    text[..at].matches('\n').count() + 1
}

fn load_error(dir: &Path) -> String {
    match Catalog::load(&DataDir::on_disk(dir)) {
        Ok(_) => panic!("a broken catalog loaded"),
        Err(e) => e.to_string(),
    }
}

/// Edits one file, loads, and checks that the message names the file, the line of `needle` in the
/// edited file, and contains `expect`.
fn refused(name: &str, file: &str, needle: &str, edit: impl Fn(&str) -> String, expect: &str) {
    let (d, text) = broken_copy(name, file, edit);
    let msg = load_error(d.path());
    let want = format!("{file}:{}", line_of(&text, needle));
    assert!(msg.contains(&want), "expected `{want}` in: {msg}");
    assert!(msg.contains(expect), "expected `{expect}` in: {msg}");
}

#[test]
fn the_catalog_loads_with_every_unit_in_a_known_command() {
    let c = catalog();
    assert_eq!(c.units.len(), 192);
    assert_eq!(c.units.iter().filter(|u| u.side == Side::Union).count(), 116);
    assert_eq!(c.units.iter().filter(|u| u.side == Side::Confederate).count(), 76);
    for u in &c.units {
        match &u.brigade {
            Some(b) => assert_eq!(c.brigade(b).map(|x| x.side), Some(u.side), "{}", u.id),
            None => assert!(u.ty.is_artillery() && u.division.is_some(), "{}", u.id),
        }
    }
}

// EX 2.9: 1 SP = 50 men, 70 cavalry or one gun, light smoothbores two guns to the SP.
#[test]
fn ex_2_9_strengths_follow_the_scale() {
    let c = catalog();
    let fresh = |id: &str| c.unit(id).and_then(|u| u.fresh).map(|f| f.sp);
    // 21WI: 1,007 men (perryville-oob S1) is 20 SP, a large unit that may stand alone (EX 3.1d).
    assert_eq!(fresh("u-21wi"), Some(Sp::whole(20)));
    // 27TN: 210 men (S5) is 4 SP.
    assert_eq!(fresh("c-27tn"), Some(Sp::whole(4)));
    // 2MI CAV: 350 troopers (S14) at 70 a SP is 5 SP.
    assert_eq!(fresh("u-2mi-cav"), Some(Sp::whole(5)));
    // Carnes: four 6-pdr smoothbores (S2) at two guns a SP.
    assert_eq!(fresh("c-carnes-art"), Some(Sp::whole(2)));
    // Loomis: six Parrott rifles (S1), one a SP.
    assert_eq!(fresh("u-loomis-art"), Some(Sp::whole(6)));
    // Bush and Stone: twelve guns on one counter (A-45), four of them 6-pdr smoothbores.
    assert_eq!(fresh("u-bush-stone-art"), Some(Sp::whole(10)));
}

// SR 2.1: a Fragile unit has only a BW side; EX 2.1: horse artillery has horse and cannon.
#[test]
fn sr_2_1_fragile_sections_and_horse_artillery() {
    let c = catalog();
    let hotchkiss = c.unit("u-hotchkiss-art").expect("Hotchkiss");
    assert_eq!(hotchkiss.ty, UnitType::HorseArtillery);
    assert!(hotchkiss.fragile());
    assert_eq!(hotchkiss.starting().sp, Sp::whole(1));
    let harris = c.unit("u-2oh").expect("2OH");
    assert!(!harris.fragile());
    // PO2 / SR 12.1 example: the BW side is a third of the FR SP, with a CR one lower.
    let f = harris.fresh.expect("fresh");
    assert_eq!((f.sp, f.cr, harris.worn.sp, harris.worn.cr), (Sp::whole(9), 3, Sp::whole(3), 2));
    // A unit of 2 FR SP is cadre-strength on its BW side.
    assert_eq!(c.unit("c-lumsden-art").map(|u| u.worn.sp), Some(Sp::CADRE));
    assert_eq!(Sp::CADRE.to_string(), "C");
}

// EX 2.1a names Antique weapons; EX 16.1 costs VP only for units of CR 2 or more, so raw units
// below that exist; EX Designer's Notes: Liddell's brigade is elite.
#[test]
fn weapons_and_cohesion_follow_the_record() {
    let c = catalog();
    assert_eq!(c.unit("u-21wi").map(|u| u.weapon), Some(Weapon::A));
    assert_eq!(c.unit("u-loomis-art").map(|u| u.weapon), Some(Weapon::R));
    assert_eq!(c.unit("c-carnes-art").map(|u| u.weapon), Some(Weapon::S));
    let cr = |id: &str| c.unit(id).map(|u| u.starting().cr);
    assert!(cr("u-123il") < Some(2), "raw Union regiment");
    assert!(cr("u-2oh") >= Some(2), "veteran Union regiment");
    assert!(cr("c-2ar") > cr("c-27ms"), "Liddell's elite brigade");
    for u in &c.units {
        assert!(u.worn.cr <= 6 && u.fresh.is_none_or(|f| f.cr <= 6 && f.sp >= u.worn.sp), "{}", u.id);
    }
}

// EX 2.1, 12.4a.ii, 14.2c: Sheridan's two batteries belong to the division, not a brigade.
#[test]
fn ex_14_2c_sheridan_artillery_belongs_to_the_division() {
    let c = catalog();
    for id in ["u-barnett-art", "u-hescock-art"] {
        let u = c.unit(id).expect("battery");
        assert_eq!((u.brigade.as_deref(), u.division.as_deref()), (None, Some("sheridan")));
    }
    assert!(c.division("sheridan").is_some_and(|d| d.artillery_released_with_brigade));
    assert_eq!(c.brigade_units("d-mccook").count(), 4);
}

// EX 7.3c-e: the chits of each kind, by name.
#[test]
fn ex_7_3_activation_chits() {
    let c = catalog();
    let ids = |kind: ChitKind, side: Owner| -> Vec<&str> {
        let mut v: Vec<&str> =
            c.chits.iter().filter(|x| x.kind == kind && x.side == side).map(|x| x.id.as_str()).collect();
        v.sort_unstable();
        v
    };
    assert_eq!(ids(ChitKind::Division, Owner::Confederate), ["anderson", "buckner", "cheatham"]);
    assert_eq!(
        ids(ChitKind::Division, Owner::Union),
        ["jackson", "mitchell", "rousseau", "schoepf", "sheridan", "van-cleve", "wood"]
    );
    assert_eq!(ids(ChitKind::Brigade, Owner::Union), ["gay"]);
    assert_eq!(ids(ChitKind::Brigade, Owner::Confederate), ["wharton", "wheeler"]);
    assert_eq!(ids(ChitKind::Cic, Owner::Union), ["a-mccook"]);
    assert_eq!(ids(ChitKind::Wild, Owner::Neutral), ["fog-of-war", "fortunes-of-war"]);
    // EX 16.1a "all seven" Confederate events; 16.2a six Union events once Brigade Initiative goes.
    assert_eq!(ids(ChitKind::Event, Owner::Confederate).len(), 7);
    assert_eq!(ids(ChitKind::Event, Owner::Union).len(), 7);
    // EX 5.2: Hidden Enemy is used once.
    assert!(c.chit("u-hidden-enemy").is_some_and(|x| x.one_use));
    // EX 7.3e: cavalry brigades carry an activation number and no Attack Coordination Rating.
    for b in ["gay", "wharton", "wheeler"] {
        let b = c.brigade(b).expect("cavalry brigade");
        assert!(b.activation.is_some() && b.coordination.is_none() && b.division.is_none());
    }
}

#[test]
fn reconstructed_parts_are_listed_by_file() {
    let c = catalog();
    let files: Vec<&str> = c.reconstructed().iter().map(|r| r.file.as_str()).collect();
    assert_eq!(files.len(), 3, "{files:?}");
    assert!(files[0].contains("counters.csv") && files[1].contains("commands.toml") && files[2].contains("chits.toml"));
    let what = &c.reconstructed()[0].what;
    assert!(what.contains("strength of 159, weapon of") && what.contains("cohesion of 192"), "{what}");
    // 2OH's 460 men come from Noe (perryville-oob S1): not a reconstruction; its CR is.
    let u = c.unit("u-2oh").expect("2OH");
    assert!(!u.sources.strength.starts_with("reconstructed") && u.sources.cohesion.starts_with("reconstructed"));
    assert!(u.reconstructed());
}

#[test]
fn a_duplicate_unit_id_is_refused() {
    refused(
        "dup",
        "counters.csv",
        "u-123il,105OH",
        |t| t.replacen("u-105oh,105OH", "u-123il,105OH", 1),
        "duplicate unit id",
    );
}

#[test]
fn an_unknown_brigade_is_refused() {
    refused(
        "brig",
        "counters.csv",
        "u-80il,",
        |t| t.replacen("u-80il,80IL,union,infantry,terrill", "u-80il,80IL,union,infantry,terril", 1),
        "field `brigade`",
    );
}

#[test]
fn a_division_that_disagrees_with_the_brigade_is_refused() {
    refused(
        "div",
        "counters.csv",
        "u-80il,",
        |t| t.replacen("80IL,union,infantry,terrill,jackson", "80IL,union,infantry,terrill,rousseau", 1),
        "field `division`",
    );
}

#[test]
fn only_artillery_may_belong_to_a_division_directly() {
    refused(
        "ex21",
        "counters.csv",
        "u-80il,",
        |t| t.replacen("u-80il,80IL,union,infantry,terrill,jackson", "u-80il,80IL,union,infantry,,sheridan", 1),
        "EX 2.1",
    );
}

#[test]
fn a_cohesion_rating_above_6_is_refused() {
    refused(
        "cr",
        "counters.csv",
        "u-80il,",
        |t| {
            t.replacen(
                "80IL,union,infantry,terrill,jackson,i-corps,13,1,4,0",
                "80IL,union,infantry,terrill,jackson,i-corps,13,7,4,0",
                1,
            )
        },
        "field `fr_cr`",
    );
}

#[test]
fn a_bad_strength_is_refused() {
    refused(
        "sp",
        "counters.csv",
        "u-80il,",
        |t| {
            t.replacen(
                "80IL,union,infantry,terrill,jackson,i-corps,13,1,4,0",
                "80IL,union,infantry,terrill,jackson,i-corps,13,1,X,0",
                1,
            )
        },
        "field `bw_sp`",
    );
}

#[test]
fn a_half_given_fresh_side_is_refused() {
    refused(
        "fr",
        "counters.csv",
        "u-80il,",
        |t| {
            t.replacen(
                "80IL,union,infantry,terrill,jackson,i-corps,13,1,4,0",
                "80IL,union,infantry,terrill,jackson,i-corps,,1,4,0",
                1,
            )
        },
        "neither for a Fragile unit",
    );
}

#[test]
fn a_value_without_a_source_is_refused() {
    refused(
        "src",
        "counters.csv",
        "u-hotchkiss-art",
        |t| t.replacen("shared/data/perryville-oob.md S26: howitzers", "", 1),
        "field `weapon_source`",
    );
}

#[test]
fn a_brigade_of_an_unknown_division_is_refused() {
    refused(
        "kdiv",
        "commands.toml",
        "id = \"terrill\"",
        |t| {
            t.replacen(
                "division = \"jackson\"\nwing = \"i-corps\"\nleader = \"William Terrill\"",
                "division = \"jakson\"\nwing = \"i-corps\"\nleader = \"William Terrill\"",
                1,
            )
        },
        "field `division`",
    );
}

#[test]
fn a_brigade_without_coordination_rating_is_refused() {
    refused(
        "coord",
        "commands.toml",
        "id = \"maney\"",
        |t| t.replacen("leader = \"George Maney\"\ncoordination = 4\n", "leader = \"George Maney\"\n", 1),
        "Attack Coordination",
    );
}

#[test]
fn a_rating_out_of_range_is_refused() {
    refused(
        "rating",
        "commands.toml",
        "id = \"cheatham\"",
        |t| t.replacen("leader = \"Benjamin Cheatham\"\nrating = 4", "leader = \"Benjamin Cheatham\"\nrating = 9", 1),
        "ratings run 1-6",
    );
}

#[test]
fn an_unknown_key_in_commands_is_refused() {
    refused(
        "key",
        "commands.toml",
        "morale = 3",
        |t| t.replacen("leader = \"George Maney\"\n", "leader = \"George Maney\"\nmorale = 3\n", 1),
        "morale",
    );
}

#[test]
fn a_division_chit_for_an_unknown_division_is_refused() {
    refused(
        "chit",
        "chits.toml",
        "id = \"wood\"",
        |t| t.replacen("command = \"wood\"", "command = \"woods\"", 1),
        "field `command`",
    );
}

#[test]
fn a_duplicate_chit_is_refused() {
    refused(
        "dupchit",
        "chits.toml",
        "id = \"c-rally\"",
        |t| t.replacen("id = \"c-sharpshooters\"", "id = \"c-rally\"", 1),
        "duplicate chit id",
    );
}

/// The other checks of the loader, one broken copy each: (file, text, replacement, the line the
/// error names by a needle of the edited file, what the message says).
#[test]
fn every_other_check_refuses_a_broken_copy() {
    let cases: [(&str, &str, &str, &str, &str); 10] = [
        (
            "counters.csv",
            "u-2oh,2OH,union,infantry,harris,rousseau,i-corps",
            "u-2oh,2OH,union,infantry,harris,rousseau,ii-corps",
            "u-2oh,",
            "field `wing`",
        ),
        (
            "counters.csv",
            "u-hescock-art,Hescock's Artillery,union,artillery,,sheridan",
            "u-hescock-art,Hescock's Artillery,union,artillery,,",
            "u-hescock-art",
            "needs a brigade",
        ),
        ("counters.csv", "i-corps,9,3,3,2,R", "i-corps,9,3,10,2,R", "u-2oh,", "never stronger"),
        ("commands.toml", "id = \"jackson\"", "id = \"rousseau\"", "id = \"rousseau\"", "duplicate command id"),
        (
            "commands.toml",
            "side = \"union\"\nwing = \"i-corps\"\nleader = \"Lovell",
            "side = \"union\"\nwing = \"i-korps\"\nleader = \"Lovell",
            "id = \"rousseau\"",
            "field `wing`",
        ),
        (
            "commands.toml",
            "division = \"rousseau\"\nwing = \"i-corps\"\nleader = \"Leonard",
            "division = \"rousseau\"\nwing = \"ii-corps\"\nleader = \"Leonard",
            "id = \"harris\"",
            "is in `i-corps`",
        ),
        (
            "commands.toml",
            "wing = \"right-wing\"\nleader = \"John Wharton\"\nactivation = 4",
            "wing = \"right-wing\"\nleader = \"John Wharton\"\nactivation = 0",
            "id = \"wharton\"",
            "activation number 1-6",
        ),
        (
            "commands.toml",
            "division = \"rousseau\"\nwing = \"i-corps\"\nleader = \"Leonard",
            "division = \"rousseau\"\nwing = \"i-corps\"\nactivation = 3\nleader = \"Leonard",
            "id = \"harris\"",
            "no activation number",
        ),
        (
            "chits.toml",
            "kind = \"wild\"\nname = \"Fog of War\"",
            "kind = \"event\"\nname = \"Fog of War\"",
            "id = \"fog-of-war\"",
            "field `command`",
        ),
        (
            "chits.toml",
            "name = \"Rally\"\nsource = \"EX 16.0a\"\n",
            "name = \"Rally\"\ncommand = \"liddell\"\nsource = \"EX 16.0a\"\n",
            "id = \"c-rally\"",
            "field `command`",
        ),
    ];
    for (i, (file, from, to, needle, expect)) in cases.into_iter().enumerate() {
        assert!(std::fs::read_to_string(dir().join(file)).expect("read").contains(from), "case {i}: `{from}`");
        refused(&format!("case{i}"), file, needle, |t| t.replacen(from, to, 1), expect);
    }
}
