//! The counters of a game and its command hierarchy, loaded from `counters.csv` and
//! `commands.toml`. Printed values only; what changes in play lives in [`crate::state`].

use std::collections::{BTreeMap, HashMap};

use caisson_kernel::data::{parse_csv, parse_toml, DataError};
use serde::Deserialize;

use crate::state::side_index;
use crate::Side;

/// Whether a counter is a military unit or a leader (GCACW 2.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A military unit.
    Unit,
    /// A leader.
    Leader,
}

/// Unit type, or leader level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CounterType {
    /// Infantry unit.
    Infantry,
    /// Cavalry unit.
    Cavalry,
    /// Union wagon train (HSN-B 2.2).
    Wagon,
    /// Army leader.
    Army,
    /// District leader.
    District,
    /// Corps leader.
    Corps,
    /// Division leader.
    Division,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CounterRow {
    id: String,
    name: String,
    side: Side,
    kind: Kind,
    #[serde(rename = "type")]
    ty: CounterType,
    size: String,
    command: String,
    tactical: Option<u8>,
    tactical_defense: Option<u8>,
    parenthesized: String,
    artillery: Option<u8>,
    command_value: Option<u8>,
    tactical_source: String,
    artillery_source: String,
    command_source: String,
}

/// A counter's printed values.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Counter {
    /// Unique id, e.g. `cox`.
    pub id: String,
    /// Printed name.
    pub name: String,
    /// Side.
    pub side: Side,
    /// Unit or leader.
    pub kind: Kind,
    /// Unit type or leader level.
    pub ty: CounterType,
    /// Size (regiment, brigade, division; or the leader level).
    pub size: String,
    /// Command code (of the command a unit belongs to, or a leader heads).
    pub command: String,
    /// Tactical value when attacking (or the only one).
    pub tactical: Option<u8>,
    /// Tactical value when defending, where the counter prints two (Cleburne 4/3).
    pub tactical_defense: Option<u8>,
    /// Whether the Tactical value is in parentheses (may not attack alone).
    pub parenthesized: bool,
    /// Artillery value (units).
    pub artillery: Option<u8>,
    /// Command value (leaders).
    pub command_value: Option<u8>,
    /// Where the Tactical, Artillery and Command values come from.
    pub sources: [String; 3],
}

impl Counter {
    /// Whether a reconstructed value is printed on this counter.
    #[must_use]
    pub fn reconstructed(&self) -> bool {
        self.sources.iter().any(|s| s.starts_with("reconstructed"))
    }
}

/// One command of the hierarchy.
#[derive(Clone, Debug, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Command {
    /// Code as printed on counters.
    pub code: String,
    /// Side.
    pub side: Side,
    /// Next higher command.
    #[serde(default)]
    pub parent: Option<String>,
    /// Counter id of the leader heading it.
    #[serde(default)]
    pub leader: Option<String>,
    /// Display name.
    pub name: String,
    /// Other printed codes for the same command.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// Source.
    pub source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CommandsFile {
    #[allow(dead_code)]
    source: String,
    command: Vec<Command>,
}

/// Every counter of a game, with its command hierarchy.
#[derive(Clone, Debug)]
pub struct Catalog {
    /// Counters in file order; their index is their number in the state.
    pub counters: Vec<Counter>,
    by_id: BTreeMap<String, usize>,
    commands: Vec<Command>,
    /// Each side's command codes and aliases, with the command each names (the first listed).
    names: [HashMap<String, usize>; 2],
    /// For each command, itself and the commands above it, nearest first (at most 16 levels).
    above: Vec<Vec<usize>>,
    /// For each counter, whether it is a cavalry leader ([`Catalog::is_cavalry_leader`]).
    cavalry_leaders: Vec<bool>,
}

impl Catalog {
    /// Parses the two files.
    ///
    /// # Errors
    /// Malformed rows, duplicate ids, unknown command codes, with file and line.
    pub fn parse(
        counters_csv: &str,
        counters_file: &str,
        commands_toml: &str,
        commands_file: &str,
    ) -> Result<Catalog, DataError> {
        let commands: CommandsFile = parse_toml(commands_toml, commands_file)?;
        let commands = commands.command;
        let mut counters = Vec::new();
        let mut by_id = BTreeMap::new();
        for (line, row) in parse_csv::<CounterRow>(counters_csv, counters_file)? {
            let at = |m: String| DataError::Invalid { file: counters_file.to_string(), line: Some(line), message: m };
            if by_id.insert(row.id.clone(), counters.len()).is_some() {
                return Err(at(format!("field `id`: duplicate counter id `{}`", row.id)));
            }
            let parenthesized = match row.parenthesized.as_str() {
                "yes" => true,
                "no" | "" => false,
                other => return Err(at(format!("field `parenthesized`: `{other}` is not yes or no"))),
            };
            let is_unit = matches!(row.ty, CounterType::Infantry | CounterType::Cavalry | CounterType::Wagon);
            if is_unit != (row.kind == Kind::Unit) {
                return Err(at(format!("field `type`: `{:?}` does not fit kind `{:?}`", row.ty, row.kind)));
            }
            if !commands
                .iter()
                .any(|c| c.side == row.side && (c.code == row.command || c.aliases.contains(&row.command)))
            {
                return Err(at(format!(
                    "field `command`: unknown command code `{}` (not in {commands_file})",
                    row.command
                )));
            }
            counters.push(Counter {
                id: row.id,
                name: row.name,
                side: row.side,
                kind: row.kind,
                ty: row.ty,
                size: row.size,
                command: row.command,
                tactical: row.tactical,
                tactical_defense: row.tactical_defense,
                parenthesized,
                artillery: row.artillery,
                command_value: row.command_value,
                sources: [row.tactical_source, row.artillery_source, row.command_source],
            });
        }
        for c in &commands {
            if let Some(p) = &c.parent {
                if !commands.iter().any(|x| &x.code == p && x.side == c.side) {
                    return Err(DataError::invalid(
                        commands_file,
                        format!("command `{}`: unknown parent `{p}`", c.code),
                    ));
                }
            }
            if let Some(l) = &c.leader {
                if !by_id.contains_key(l) {
                    return Err(DataError::invalid(
                        commands_file,
                        format!("command `{}`: leader `{l}` is not in {counters_file}", c.code),
                    ));
                }
            }
        }
        let mut names: [HashMap<String, usize>; 2] = Default::default();
        for (i, c) in commands.iter().enumerate() {
            let side = &mut names[side_index(c.side)];
            for code in std::iter::once(&c.code).chain(&c.aliases) {
                side.entry(code.clone()).or_insert(i);
            }
        }
        let parent = |i: usize| {
            let c: &Command = &commands[i];
            let p = c.parent.as_deref()?;
            commands.iter().position(|x| x.side == c.side && x.code == p)
        };
        let above =
            (0..commands.len()).map(|i| std::iter::successors(Some(i), |&j| parent(j)).take(16).collect()).collect();
        let mut catalog = Catalog { counters, by_id, commands, names, above, cavalry_leaders: Vec::new() };
        catalog.cavalry_leaders = (0..catalog.counters.len()).map(|l| catalog.find_cavalry_leader(l)).collect();
        Ok(catalog)
    }

    /// A counter's index by id.
    #[must_use]
    pub fn index(&self, id: &str) -> Option<usize> {
        self.by_id.get(id).copied()
    }

    /// A counter by index.
    #[must_use]
    pub fn get(&self, i: usize) -> &Counter {
        &self.counters[i]
    }

    /// Whether command `inner` of `side` is `outer` or lies below it in the hierarchy (codes or
    /// aliases; a code not in the hierarchy is only itself).
    #[must_use]
    pub fn within(&self, side: Side, inner: &str, outer: &str) -> bool {
        let names = &self.names[side_index(side)];
        let o = names.get(outer);
        match names.get(inner) {
            Some(i) => o.is_some_and(|o| self.above[*i].contains(o)),
            None => inner == o.map_or(outer, |&o| self.commands[o].code.as_str()),
        }
    }

    /// Whether the unit `unit` is subordinate to the leader `leader` (GCACW 2.1): an army leader
    /// commands every unit of his side; any other leader the units of his command and below.
    #[must_use]
    pub fn commands_unit(&self, leader: usize, unit: usize) -> bool {
        let (l, u) = (&self.counters[leader], &self.counters[unit]);
        l.side == u.side && (l.ty == CounterType::Army || self.within(l.side, &u.command, &l.command))
    }

    /// Whether a leader is a cavalry leader: every unit of his command in the game is cavalry.
    #[must_use]
    pub fn is_cavalry_leader(&self, leader: usize) -> bool {
        self.cavalry_leaders.get(leader).copied().unwrap_or(false)
    }

    fn find_cavalry_leader(&self, leader: usize) -> bool {
        let mut any = false;
        for (i, c) in self.counters.iter().enumerate() {
            if c.kind == Kind::Unit && self.commands_unit(leader, i) {
                if c.ty != CounterType::Cavalry {
                    return false;
                }
                any = true;
            }
        }
        any
    }
}
