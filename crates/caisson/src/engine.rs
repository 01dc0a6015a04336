//! The engine: JSON lines on stdin and stdout for programs (GUIs, AIs, test harnesses).
//!
//! One request object per line, with a `cmd` field; one reply object per line, with `ok` and, on
//! failure, `error`. The contract is `docs/protocol.md`. The engine never stops on a bad request:
//! malformed JSON, unknown commands, illegal options and oversized lines all get an error reply.

use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};

use caisson_kernel::{DiceMode, DynGame, Save, SaveError, Setup};
use serde_json::{json, Map, Value};

use crate::lines::{read_line, Line, MAX_LINE};
use crate::{panic_message, Registry};

/// The commands the engine knows, in the order `docs/protocol.md` lists them.
pub const COMMANDS: [&str; 12] =
    ["new", "pending", "choose", "undo", "state", "view", "log", "save", "load", "scenarios", "help", "quit"];

/// What a handled request gives back.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// The reply object (`ok` is always present).
    pub value: Value,
    /// Whether the engine stops after sending it (`quit`).
    pub quit: bool,
}

impl Reply {
    /// Whether the reply is `"ok": true`.
    #[must_use]
    pub fn is_ok(&self) -> bool {
        self.value.get("ok") == Some(&Value::Bool(true))
    }

    /// The reply as one line of JSON (no newline), with `ok`, `id` and `error` first.
    #[must_use]
    pub fn to_line(&self) -> String {
        let Value::Object(map) = &self.value else {
            return self.value.to_string();
        };
        let first = ["ok", "id", "error"];
        let ordered = first
            .iter()
            .filter_map(|k| map.get_key_value(*k))
            .chain(map.iter().filter(|(k, _)| !first.contains(&k.as_str())));
        let parts: Vec<String> = ordered.map(|(k, v)| format!("{}:{v}", Value::String(k.clone()))).collect();
        format!("{{{}}}", parts.join(","))
    }

    /// The `error` message, when there is one.
    #[must_use]
    pub fn error(&self) -> Option<&str> {
        self.value.get("error").and_then(Value::as_str)
    }
}

/// An engine session: at most one game at a time.
pub struct Engine<'r> {
    registry: &'r dyn Registry,
    game: Option<Box<dyn DynGame>>,
}

type Fields = Map<String, Value>;

impl<'r> Engine<'r> {
    /// An engine with no game yet.
    #[must_use]
    pub fn new(registry: &'r dyn Registry) -> Engine<'r> {
        Engine { registry, game: None }
    }

    /// The game in play, if any.
    #[must_use]
    pub fn game(&self) -> Option<&dyn DynGame> {
        self.game.as_deref()
    }

    /// Serves requests from `input` until `quit` or end of input, one reply line per request
    /// line (blank lines are skipped), flushing after every reply.
    ///
    /// # Errors
    /// Reading or writing failed (a closed output, for instance).
    pub fn run(&mut self, input: &mut dyn BufRead, output: &mut dyn Write) -> io::Result<()> {
        loop {
            let reply = match read_line(input, MAX_LINE)? {
                Line::Eof => return Ok(()),
                Line::Text(t) if t.trim().is_empty() => continue,
                Line::Text(t) => self.handle(&t),
                Line::TooLong(n) => {
                    failure(None, format!("request line of {n} bytes refused: the limit is {MAX_LINE} bytes"))
                }
                Line::NotUtf8 => failure(None, "request line refused: it is not UTF-8".to_string()),
            };
            output.write_all(reply.to_line().as_bytes())?;
            output.write_all(b"\n")?;
            output.flush()?;
            if reply.quit {
                return Ok(());
            }
        }
    }

    /// Handles one request line.
    pub fn handle(&mut self, line: &str) -> Reply {
        let request: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(e) => return failure(None, format!("malformed JSON: {e}")),
        };
        let Some(request) = request.as_object() else {
            return failure(None, "a request must be a JSON object with a \"cmd\" field".to_string());
        };
        let id = request.get("id").cloned();
        let cmd = match request.get("cmd") {
            Some(Value::String(c)) => c.clone(),
            Some(_) => return failure(id, "\"cmd\" must be a string".to_string()),
            None => return failure(id, format!("missing \"cmd\"; commands: {}", COMMANDS.join(", "))),
        };
        // Choices only ever append, so the first `before` choices are the game before this command.
        let before = self.game.as_ref().map_or(0, |g| g.actions().len());
        let outcome = catch_unwind(AssertUnwindSafe(|| self.dispatch(&cmd, request)));
        let result = match outcome {
            Ok(r) => r,
            Err(payload) => {
                let restored = self.restore(before);
                Err(format!(
                    "internal error: `{cmd}` panicked ({}); {restored}. This is a bug: please report it with a save",
                    panic_message(payload.as_ref())
                ))
            }
        };
        match result {
            Ok(mut fields) => {
                let mut value = Map::new();
                value.insert("ok".into(), Value::Bool(true));
                if let Some(id) = id {
                    value.insert("id".into(), id);
                }
                value.append(&mut fields);
                Reply { value: Value::Object(value), quit: cmd == "quit" }
            }
            Err(message) => failure(id, message),
        }
    }

    fn dispatch(&mut self, cmd: &str, req: &Fields) -> Result<Fields, String> {
        match cmd {
            "new" => self.new_game(req),
            "load" => self.load(req),
            "scenarios" => {
                let list = self.registry.scenarios()?;
                Ok(fields([("scenarios", to_json(&list))]))
            }
            "help" => Ok(fields([("commands", json!(COMMANDS))])),
            "quit" => Ok(Fields::new()),
            "pending" => Ok(status(self.current()?)),
            "choose" => {
                self.current()?;
                let option = match req.get("option") {
                    Some(Value::String(o)) => o.clone(),
                    Some(_) => return Err("\"option\" must be a string (an option id)".to_string()),
                    None => return Err("missing \"option\" (an option id from the decision)".to_string()),
                };
                let game = self.current_mut()?;
                game.choose(&option).map_err(|e| e.to_string())?;
                Ok(status(game))
            }
            "undo" => {
                let game = self.current_mut()?;
                game.undo().map_err(|e| e.to_string())?;
                Ok(status(game))
            }
            "state" => {
                let game = self.current()?;
                Ok(fields([("state", game.state_json()), ("hash", Value::String(game.state_hash()))]))
            }
            "view" => {
                let side = match req.get("side") {
                    None | Some(Value::Null) => None,
                    Some(Value::String(s)) => Some(s.clone()),
                    Some(_) => {
                        return Err("\"side\" must be a side id (\"union\", \"confederate\") or null".to_string())
                    }
                };
                Ok(fields([("view", self.current()?.view(side.as_deref()))]))
            }
            "log" => {
                let from = match req.get("from") {
                    None | Some(Value::Null) => 0,
                    Some(v) => v
                        .as_u64()
                        .and_then(|n| usize::try_from(n).ok())
                        .ok_or("\"from\" must be a whole number (a log index)")?,
                };
                let log = self.current()?.log();
                let entries = log.get(from.min(log.len())..).unwrap_or_default();
                Ok(fields([("log", to_json(entries)), ("from", json!(from)), ("next", json!(log.len()))]))
            }
            "save" => Ok(fields([("save", to_json(&self.current()?.save()))])),
            other => Err(format!("unknown command `{other}`; commands: {}", COMMANDS.join(", "))),
        }
    }

    /// After a panic, rebuilds the game from its setup and its first `choices` choices, since the
    /// panic may have left it half-changed. Says what became of the game.
    fn restore(&mut self, choices: usize) -> String {
        let Some(game) = self.game.take() else {
            return "there is no game".to_string();
        };
        let setup = game.setup().clone();
        let actions: Vec<String> = game.actions().iter().take(choices).cloned().collect();
        let rebuilt = catch_unwind(AssertUnwindSafe(|| -> Result<Box<dyn DynGame>, String> {
            let mut g = self.registry.new_game(&setup)?;
            for a in &actions {
                g.choose(a).map_err(|e| e.to_string())?;
            }
            Ok(g)
        }));
        match rebuilt {
            Ok(Ok(g)) => {
                self.game = Some(g);
                "the game is as it was before the request".to_string()
            }
            Ok(Err(e)) => format!("the game could not be rebuilt ({e}) and was closed"),
            Err(_) => "the game could not be rebuilt (it panicked again) and was closed".to_string(),
        }
    }

    fn current(&self) -> Result<&dyn DynGame, String> {
        self.game.as_deref().ok_or_else(no_game)
    }

    fn current_mut(&mut self) -> Result<&mut (dyn DynGame + 'static), String> {
        self.game.as_deref_mut().ok_or_else(no_game)
    }

    fn new_game(&mut self, req: &Fields) -> Result<Fields, String> {
        let scenario = match req.get("scenario") {
            Some(Value::String(s)) => s.clone(),
            Some(_) => return Err("\"scenario\" must be a string (a scenario id)".to_string()),
            None => return Err("missing \"scenario\"; `scenarios` lists them".to_string()),
        };
        let seed = match req.get("seed") {
            None | Some(Value::Null) => 1,
            Some(v) => v.as_u64().ok_or("\"seed\" must be a whole number from 0 to 18446744073709551615")?,
        };
        let dice = match req.get("dice") {
            None | Some(Value::Null) => DiceMode::Seeded,
            Some(Value::String(d)) => d.parse::<DiceMode>()?,
            Some(_) => return Err("\"dice\" must be \"seeded\" or \"manual\"".to_string()),
        };
        let mut options = match req.get("options") {
            None | Some(Value::Null) => Vec::new(),
            Some(Value::Array(a)) => a
                .iter()
                .map(|o| o.as_str().map(str::to_string))
                .collect::<Option<Vec<String>>>()
                .ok_or("\"options\" must be an array of strings")?,
            Some(_) => return Err("\"options\" must be an array of strings".to_string()),
        };
        options.sort();
        let setup =
            Setup { system: self.registry.system().to_string(), scenario: scenario.clone(), seed, dice, options };
        let game = self.registry.new_game(&setup)?;
        let notices = self.registry.notices(&scenario).unwrap_or_else(|e| vec![format!("(no notices: {e})")]);
        let mut reply = status(game.as_ref());
        reply.insert("setup".into(), to_json(game.setup()));
        reply.insert("notices".into(), json!(notices));
        self.game = Some(game);
        Ok(reply)
    }

    fn load(&mut self, req: &Fields) -> Result<Fields, String> {
        let save = req.get("save").ok_or("missing \"save\" (a save object, as `save` returns it)")?;
        let save: Save =
            serde_json::from_value(save.clone()).map_err(|e| SaveError::Parse(e.to_string()).to_string())?;
        let game = self.registry.load_game(&save).map_err(|e| e.to_string())?;
        let mut reply = status(game.as_ref());
        reply.insert("setup".into(), to_json(game.setup()));
        reply.insert("hash".into(), Value::String(game.state_hash()));
        self.game = Some(game);
        Ok(reply)
    }
}

fn no_game() -> String {
    "no game: send `new` or `load` first".to_string()
}

/// The pending decision (or null) and whether undo is possible.
fn status(game: &dyn DynGame) -> Fields {
    fields([("decision", to_json(&game.pending())), ("can_undo", Value::Bool(game.can_undo()))])
}

fn fields<const N: usize>(pairs: [(&str, Value); N]) -> Fields {
    pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
}

fn to_json<T: serde::Serialize + ?Sized>(v: &T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

fn failure(id: Option<Value>, message: String) -> Reply {
    let mut value = Map::new();
    value.insert("ok".into(), Value::Bool(false));
    if let Some(id) = id {
        value.insert("id".into(), id);
    }
    value.insert("error".into(), Value::String(message));
    Reply { value: Value::Object(value), quit: false }
}
