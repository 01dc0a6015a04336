//! The Turn Track as players see it: each turn's date and the markers in its box — the ones the
//! scenario places at the start (HSN Sc 9 "Turn Track Markers") and the ones the game places as
//! it goes (winter weather, HSN-A 4.0; rain this turn, GCACW 12.0).

use serde::Serialize;

use crate::rules::Gcacw;
use crate::state::State;

/// One box of the Turn Track.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TurnBox {
    /// Turn number, from 1.
    pub turn: u16,
    /// Its date, `YYYY-MM-DD`.
    pub date: String,
    /// Whether it is the turn being played.
    pub current: bool,
    /// Whether winter weather is in effect on it, as far as the markers now say (HSN-A 4.0).
    pub winter: bool,
    /// The markers in its box, in words.
    pub markers: Vec<String>,
}

/// The date of `turn` of a scenario whose Turn 1 is `first_date` (`YYYY-MM-DD`; one turn a
/// day, GCACW 3.0). A date that does not parse is returned as it is.
#[must_use]
pub fn date_of(first_date: &str, turn: u16) -> String {
    let parts: Vec<u32> = first_date.split('-').filter_map(|p| p.parse().ok()).collect();
    let [y, m, d] = parts[..] else { return first_date.to_string() };
    let leap = |y: u32| (y.is_multiple_of(4) && !y.is_multiple_of(100)) || y.is_multiple_of(400);
    let month_len = |y: u32, m: u32| match m {
        2 if leap(y) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    let (mut y, mut m, mut d) = (y, m, d + u32::from(turn.saturating_sub(1)));
    while (1..=12).contains(&m) && d > month_len(y, m) {
        d -= month_len(y, m);
        m += 1;
        if m > 12 {
            m = 1;
            y += 1;
        }
    }
    format!("{y:04}-{m:02}-{d:02}")
}

/// Every box of the scenario's Turn Track with its markers.
#[must_use]
pub fn track(rules: &Gcacw, state: &State) -> Vec<TurnBox> {
    let sc = rules.scenario();
    let winter = state.campaign.winter;
    (1..=sc.turns)
        .map(|turn| {
            let mut markers: Vec<String> =
                sc.turn_marker.iter().filter(|m| m.turn == turn).map(|m| m.text.clone()).collect();
            if let Some(w) = winter {
                if w.start == turn {
                    markers.push("Winter Weather Start".into());
                }
                if w.last == turn {
                    markers.push("Last Turn of Winter".into());
                }
            }
            if turn == state.turn {
                markers.extend(effects(state));
                if state.rain && !markers.iter().any(|m| m.contains("Rain")) {
                    markers.push("Rain".into());
                }
            }
            TurnBox {
                turn,
                date: date_of(&sc.first_date, turn),
                current: turn == state.turn,
                winter: state.campaign.winter_on(turn),
                markers,
            }
        })
        .collect()
}

/// This turn's random-event effects in force, in words.
pub fn effects(state: &State) -> Vec<String> {
    let ev = &state.events;
    let mut out = Vec::new();
    if let Some(side) = ev.paralysis {
        out.push(format!("Command Paralysis: {side}"));
    }
    if let Some(side) = ev.enhanced {
        out.push(format!("Enhanced Movement: {side}"));
    }
    if ev.rain {
        out.push("Rain".to_string());
    }
    if ev.late_rain {
        out.push(if state.rain { "Late Rain: raining".to_string() } else { "Late Rain: on double 1s".to_string() });
    }
    if ev.night_march {
        out.push("Union Night March".to_string());
    }
    if ev.no_pontoon {
        out.push("No Union pontoons".to_string());
    }
    if ev.no_grand_assaults_through.is_some_and(|t| state.turn <= t) {
        out.push(format!("No Union grand assaults through Turn {}", ev.no_grand_assaults_through.unwrap_or(0)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::date_of;

    #[test]
    fn turn_dates_cross_months_and_years() {
        // HSN Sc 9: Turn 1 is November 23, Turn 10 December 2, Turn 32 December 24.
        assert_eq!(date_of("1864-11-23", 1), "1864-11-23");
        assert_eq!(date_of("1864-11-23", 10), "1864-12-02");
        assert_eq!(date_of("1864-11-23", 32), "1864-12-24");
        assert_eq!(date_of("1864-12-31", 2), "1865-01-01");
        assert_eq!(date_of("1864-02-28", 2), "1864-02-29");
        assert_eq!(date_of("1863-02-28", 2), "1863-03-01");
        assert_eq!(date_of("not a date", 3), "not a date");
    }
}
