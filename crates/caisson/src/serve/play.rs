//! Served games in play: rebuilding a game from the store (with a cache that is checked against
//! the store's head on every use, so it never serves a stale game), the seat checks, actions and
//! undo with their commits, the computer's moves, and the game as one seat sees it.
//!
//! Everything here is synchronous (the HTTP layer runs it on blocking threads) and runs under
//! the game's own lock, so within one process the requests of a game are taken one at a time;
//! between processes the store's head check keeps two changes from both applying.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::http::StatusCode;
use caisson_ai::{Bot, Level};
use caisson_kernel::{DynGame, Save, Setup};
use serde_json::{json, Value};

use super::seats::{seat_of, Mode, Seat};
use super::store::{GameRecord, Head, Store, StoreError};
use crate::Registry;

/// A refused or failed request: an HTTP status and a message for people.
#[derive(Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The status.
    pub status: StatusCode,
    /// The message.
    pub message: String,
}

impl ApiError {
    /// A 400.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::BAD_REQUEST, message: message.into() }
    }
    /// A 404.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::NOT_FOUND, message: message.into() }
    }
    /// A 500: a bug or a failing database.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::INTERNAL_SERVER_ERROR, message: message.into() }
    }
    fn forbidden(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::FORBIDDEN, message: message.into() }
    }
    fn stale(seq: u64, now: u64) -> ApiError {
        ApiError {
            status: StatusCode::CONFLICT,
            message: format!("the game has moved on: you sent seq {seq}, it now has {now} actions; reload it"),
        }
    }
    fn conflict() -> ApiError {
        ApiError {
            status: StatusCode::CONFLICT,
            message: "the game was changed by another request at the same time; reload it".to_string(),
        }
    }
    fn store(e: StoreError) -> ApiError {
        match e {
            StoreError::Conflict => ApiError::conflict(),
            StoreError::NotFound => ApiError::not_found("no such game"),
            StoreError::Db(e) => ApiError::internal(format!("database error: {e}")),
        }
    }
}

/// A game rebuilt from the store, as of `head`.
pub struct Loaded {
    /// Setup, mode, computer side, tokens.
    pub record: GameRecord,
    /// The store's head this game was built from or committed to.
    pub head: Head,
    /// The game.
    pub game: Box<dyn DynGame>,
    /// The scenario's notices.
    pub notices: Vec<String>,
}

/// The lock and cached game of one game id.
pub type Slot = Arc<tokio::sync::Mutex<Option<Loaded>>>;

/// At most this many games are kept built in memory; the least recently used idle one goes.
const CACHED_GAMES: usize = 1024;

/// The computer gives back the decision after at most this many choices in a row.
const BOT_LIMIT: usize = 100_000;

/// A new game's parameters, checked.
pub struct NewGame {
    /// The setup.
    pub setup: Setup,
    /// The mode.
    pub mode: Mode,
    /// The computer's side, in computer mode.
    pub computer: Option<String>,
    /// The computer player.
    pub bot: Bot,
}

/// The served games: the registry that builds them, the store that keeps them, and the cache.
pub struct Games {
    registry: Arc<dyn Registry + Send + Sync>,
    store: Arc<dyn Store>,
    slots: Mutex<Slots>,
}

/// The slots of the games in use, each with the tick of its last use.
#[derive(Default)]
struct Slots {
    by_id: HashMap<String, (Slot, u64)>,
    tick: u64,
}

impl Games {
    /// Games of `registry` kept in `store`.
    pub fn new(registry: Arc<dyn Registry + Send + Sync>, store: Arc<dyn Store>) -> Games {
        Games { registry, store, slots: Mutex::new(Slots::default()) }
    }

    /// The registry.
    pub fn registry(&self) -> &(dyn Registry + Send + Sync) {
        self.registry.as_ref()
    }

    /// The store.
    pub fn store(&self) -> &dyn Store {
        self.store.as_ref()
    }

    /// The lock of a game id (created on first use).
    pub fn slot(&self, id: &str) -> Slot {
        let mut guard = match self.slots.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        let Slots { by_id: slots, tick } = &mut *guard;
        *tick += 1;
        if let Some((slot, used)) = slots.get_mut(id) {
            *used = *tick;
            return slot.clone();
        }
        if slots.len() >= CACHED_GAMES {
            // Only a slot nobody holds or waits for may go.
            let idle = slots
                .iter()
                .filter(|(_, (slot, _))| Arc::strong_count(slot) == 1)
                .min_by_key(|(_, (_, used))| *used)
                .map(|(id, _)| id.clone());
            if let Some(idle) = idle {
                slots.remove(&idle);
            }
        }
        let slot: Slot = Arc::new(tokio::sync::Mutex::new(None));
        slots.insert(id.to_string(), (slot.clone(), *tick));
        slot
    }

    /// Forgets an id that names no game.
    pub fn forget(&self, id: &str) {
        if let Ok(mut guard) = self.slots.lock() {
            if guard.by_id.get(id).is_some_and(|(slot, _)| Arc::strong_count(slot) == 1) {
                guard.by_id.remove(id);
            }
        }
    }

    /// The game as the store has it now: the cached one if the store's head is still the one it
    /// was built from, otherwise rebuilt from the store.
    ///
    /// # Errors
    /// 404 for an unknown game; 500 if the store fails or its game does not replay.
    pub fn fresh<'s>(&self, id: &str, slot: &'s mut Option<Loaded>) -> Result<&'s mut Loaded, ApiError> {
        let head = self.store.head(id).map_err(ApiError::store)?;
        let Some(head) = head else {
            *slot = None;
            return Err(ApiError::not_found(format!("no game `{id}`")));
        };
        if !slot.as_ref().is_some_and(|l| l.head == head) {
            *slot = None;
            *slot = Some(self.load(id)?);
        }
        slot.as_mut().ok_or_else(|| ApiError::internal("the game could not be kept in memory"))
    }

    fn load(&self, id: &str) -> Result<Loaded, ApiError> {
        let (record, actions, head) = self
            .store
            .load(id)
            .map_err(ApiError::store)?
            .ok_or_else(|| ApiError::not_found(format!("no game `{id}`")))?;
        let game = self
            .replay(&record.setup, &actions)
            .map_err(|e| ApiError::internal(format!("stored game `{id}` does not replay: {e}")))?;
        let notices = self.registry.notices(&record.setup.scenario).unwrap_or_default();
        Ok(Loaded { record, head, game, notices })
    }

    /// A game built from its setup and choices.
    ///
    /// # Errors
    /// The setup is refused, or a choice is not legal.
    pub fn replay(&self, setup: &Setup, actions: &[String]) -> Result<Box<dyn DynGame>, String> {
        let mut game = self.registry.new_game(setup)?;
        for (i, option) in actions.iter().enumerate() {
            game.choose(option).map_err(|e| format!("choice {} (`{option}`) is refused: {e}", i + 1))?;
        }
        Ok(game)
    }

    /// Creates and stores a game (the computer's opening moves included) and caches it.
    ///
    /// # Errors
    /// 400 for a refused setup or save; 500 if the store fails.
    pub fn create(&self, new: NewGame, save: Option<&Save>) -> Result<(GameRecord, Loaded), ApiError> {
        let mut game = match save {
            Some(save) => self.registry.load_game(save).map_err(|e| ApiError::bad_request(e.to_string()))?,
            None => self.registry.new_game(&new.setup).map_err(ApiError::bad_request)?,
        };
        let setup = game.setup().clone();
        let notices = self.registry.notices(&setup.scenario).unwrap_or_default();
        let mut actions = game.actions().to_vec();
        bot_moves(game.as_mut(), new.computer.as_deref(), new.bot, &mut actions)?;
        let tokens = new
            .mode
            .seats()
            .iter()
            .map(|seat| Ok((*seat, super::seats::new_token()?)))
            .collect::<Result<Vec<_>, String>>()
            .map_err(ApiError::internal)?;
        let created = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX));
        // A taken id (vanishingly unlikely with 80 random bits) is simply drawn again.
        for _ in 0..4 {
            let id = super::seats::random_hex(10).map_err(ApiError::internal)?;
            let record = GameRecord {
                id,
                setup: setup.clone(),
                mode: new.mode,
                computer: new.computer.clone(),
                bot: new.computer.as_ref().map(|_| new.bot.name()),
                tokens: tokens.clone(),
                created,
            };
            match self.store.create(&record, &actions) {
                Ok(head) => {
                    let loaded = Loaded { record: record.clone(), head, game, notices };
                    return Ok((record, loaded));
                }
                Err(StoreError::Conflict) => {}
                Err(e) => return Err(ApiError::store(e)),
            }
        }
        Err(ApiError::internal("could not draw a free game id"))
    }

    /// Applies a seat's option to a game at `seq`, then the computer's replies, and commits them.
    /// On any failure after the game changed in memory, the cached game is dropped.
    ///
    /// # Errors
    /// 409 stale `seq` or a concurrent change; 400 game over or option not offered; 403 the
    /// seat may not act for the deciding side; 500 store failure.
    pub fn act(&self, slot: &mut Option<Loaded>, seat: Seat, seq: u64, option: &str) -> Result<(), ApiError> {
        let Some(loaded) = slot.as_mut() else { return Err(ApiError::conflict()) };
        if seq != loaded.head.seq {
            return Err(ApiError::stale(seq, loaded.head.seq));
        }
        let Some(decision) = loaded.game.pending() else { return Err(ApiError::bad_request("the game is over")) };
        let computer = loaded.record.computer.clone();
        let bot = record_bot(&loaded.record);
        if !seat.may_act(&decision.side, computer.as_deref()) {
            return Err(ApiError::forbidden(format!(
                "the game waits for {}: the {} seat may not act for that side",
                decision.side,
                seat.as_str()
            )));
        }
        loaded.game.choose(option).map_err(|e| ApiError::bad_request(e.to_string()))?;
        let mut new = vec![option.to_string()];
        let result = bot_moves(loaded.game.as_mut(), computer.as_deref(), bot, &mut new)
            .and_then(|()| self.store.append(&loaded.record.id, loaded.head, &new).map_err(ApiError::store));
        match result {
            Ok(head) => {
                loaded.head = head;
                Ok(())
            }
            Err(e) => {
                *slot = None;
                Err(e)
            }
        }
    }

    /// Takes back the last choice of a game at `seq` and commits that.
    ///
    /// # Errors
    /// 409 stale `seq` or a concurrent change; 403 the seat may not act for the deciding side;
    /// 400 nothing may be undone; 500 store failure.
    pub fn undo(&self, slot: &mut Option<Loaded>, seat: Seat, seq: u64) -> Result<(), ApiError> {
        let Some(loaded) = slot.as_mut() else { return Err(ApiError::conflict()) };
        if seq != loaded.head.seq {
            return Err(ApiError::stale(seq, loaded.head.seq));
        }
        if !may_undo(loaded, seat) {
            return Err(ApiError::forbidden(format!("the {} seat may not take back the last choice", seat.as_str())));
        }
        loaded.game.undo().map_err(|e| ApiError::bad_request(e.to_string()))?;
        let keep = loaded.game.actions().len() as u64;
        match self.store.truncate(&loaded.record.id, loaded.head, keep) {
            Ok(head) => {
                loaded.head = head;
                Ok(())
            }
            Err(e) => {
                *slot = None;
                Err(ApiError::store(e))
            }
        }
    }
}

/// What the computer opponent would choose in the decision `seat` faces now (`caisson_ai::advise`
/// at the default level, seeded as its own choice there would be): `{"seq", "option", "label",
/// "bot"}`. Nothing changes.
///
/// # Errors
/// 403 in an online game (the other side is a person) or when the seat does not decide now; 400
/// when the game is over, waits for a die entered by hand, or is not a GCACW game.
pub fn hint_json(loaded: &Loaded, seat: Seat) -> Result<Value, ApiError> {
    if loaded.record.mode == Mode::Online {
        return Err(ApiError::forbidden("no hints in an online game: the other side is a person"));
    }
    let game = loaded.game.as_ref();
    let Some(decision) = game.pending() else { return Err(ApiError::bad_request("the game is over")) };
    if !seat.may_act(&decision.side, loaded.record.computer.as_deref()) {
        return Err(ApiError::forbidden(format!("the game waits for {}, not for this seat", decision.side)));
    }
    let level = Level::default();
    let seed = caisson_ai::bot_seed(game.setup().seed, game.actions().len() as u64);
    let hint = caisson_ai::advise(game, level, seed).ok_or_else(|| {
        ApiError::bad_request(
            "no hint here: the computer opponent plays the GCACW games only, and a die to enter is no choice",
        )
    })?;
    let label = decision.options.iter().find(|c| c.id == hint.choice).map_or("", |c| c.label.as_str());
    Ok(json!({
        "seq": game.actions().len(),
        "option": hint.choice,
        "label": label,
        "bot": Bot::Ai(level).name(),
    }))
}

/// Whether a seat may undo: it must be the one deciding now (undo never crosses a change of
/// side), or the table once the game is over.
fn may_undo(loaded: &Loaded, seat: Seat) -> bool {
    match loaded.game.pending() {
        Some(d) => seat.may_act(&d.side, loaded.record.computer.as_deref()),
        None => seat == Seat::Table,
    }
}

/// The seat a request's token opens.
///
/// # Errors
/// 401 no token; 403 a token that opens no seat of this game.
pub fn seat(record: &GameRecord, token: Option<&str>) -> Result<Seat, ApiError> {
    let Some(token) = token.filter(|t| !t.is_empty()) else {
        return Err(ApiError {
            status: StatusCode::UNAUTHORIZED,
            message: "missing seat token: send `Authorization: Bearer <token>` (or `?token=<token>`)".to_string(),
        });
    };
    seat_of(&record.tokens, token)
        .ok_or_else(|| ApiError::forbidden(format!("this token opens no seat of game `{}`", record.id)))
}

/// The computer player of a stored game: its stored name, or `random` for games stored before
/// there was a choice (or a name this version does not know).
fn record_bot(record: &GameRecord) -> Bot {
    record.bot.as_deref().and_then(Bot::parse).unwrap_or(Bot::Random)
}

/// Lets the computer decide while the pending decision is its side's, appending its choices to
/// `out`. Each choice is seeded from the game's seed and the number of choices made
/// ([`caisson_ai::bot_seed`]), so a replay makes the same choices (they are stored as ordinary
/// actions anyway).
fn bot_moves(game: &mut dyn DynGame, computer: Option<&str>, bot: Bot, out: &mut Vec<String>) -> Result<(), ApiError> {
    let Some(side) = computer else { return Ok(()) };
    for _ in 0..BOT_LIMIT {
        let Some(decision) = game.pending() else { return Ok(()) };
        if decision.side != side {
            return Ok(());
        }
        let seed = caisson_ai::bot_seed(game.setup().seed, game.actions().len() as u64);
        let choice = bot.choose(game, seed).unwrap_or_default();
        game.choose(&choice).map_err(|e| ApiError::internal(format!("the computer's choice `{choice}`: {e}")))?;
        out.push(choice);
    }
    Err(ApiError::internal(format!("the computer made {BOT_LIMIT} choices in a row without handing back")))
}

/// The game as `seat` sees it. `live` is false for a replay: no decision, nothing to do.
#[must_use]
pub fn game_json(loaded: &Loaded, game: &dyn DynGame, seat: Seat, live: bool) -> Value {
    let record = &loaded.record;
    let pending = game.pending();
    let computer = record.computer.as_deref();
    let decision = pending.as_ref().filter(|d| live && seat.may_act(&d.side, computer));
    json!({
        "game": record.id,
        "seat": seat.as_str(),
        "mode": record.mode.as_str(),
        "seq": game.actions().len(),
        "setup": game.setup(),
        "notices": loaded.notices,
        "decision": decision,
        "waiting_for": pending.as_ref().map(|d| d.side.as_str()),
        "can_act": decision.is_some(),
        "can_undo": live && game.can_undo() && may_undo(loaded, seat),
        "over": pending.is_none(),
        "view": game.view(seat.view_side(computer)),
        "log": game.log(),
        "computer": computer,
        "bot": computer.map(|_| record_bot(record).name()),
    })
}

/// The seats of a new game and their tokens, as the creation reply gives them.
#[must_use]
pub fn seats_json(record: &GameRecord) -> Value {
    let seats: serde_json::Map<String, Value> =
        record.tokens.iter().map(|(s, t)| (s.as_str().to_string(), Value::String(t.clone()))).collect();
    json!({"game": record.id, "seats": seats})
}
