//! `caisson serve`: the HTTP face of the engine for browsers and other clients, as
//! `docs/web-api.md` describes it.
//!
//! - `mod.rs` (here): the router, the handlers (request parsing, tokens, JSON errors), the
//!   embedded page, server-sent events, and [`run`] for the command line;
//! - [`play`]: games in play — the cache checked against the store, seat checks, actions, undo,
//!   the computer player, the game as a seat sees it;
//! - [`seats`]: modes, seats, tokens;
//! - [`store`]: persistence behind the [`store::Store`] trait, in SQLite or PostgreSQL.
//!
//! A request that touches a game takes that game's lock, then runs on a blocking thread: it
//! checks the store's head (rebuilding the game if another request or process changed it),
//! checks the token, applies the change in memory, commits it, and only then answers.

pub mod play;
pub mod seats;
pub mod store;

use std::collections::HashMap;
use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use caisson_ai::{Bot, Level};
use caisson_kernel::{DiceMode, Save, Setup};
use serde_json::{json, Map, Value};
use tokio::sync::broadcast;

use self::play::{game_json, hint_json, seat, seats_json, ApiError, Games, Loaded, NewGame};
use self::seats::{Mode, SIDES};
use self::store::{Head, Store};
use crate::{panic_message, Registry};

/// The largest request body accepted (1 MiB); a longer one gets 413.
pub const MAX_BODY: usize = 1 << 20;

/// How often an event stream looks at the store for changes made by other server processes.
const POLL: Duration = Duration::from_secs(1);

const INDEX_HTML: &str = include_str!("../../web/index.html");
const APP_JS: &str = include_str!("../../web/app.js");
const STYLE_CSS: &str = include_str!("../../web/style.css");

/// The server's shared state: the games, the event channels of this process, rendered maps.
pub struct App {
    games: Games,
    events: Mutex<HashMap<String, broadcast::Sender<Head>>>,
    maps: Mutex<HashMap<String, Arc<str>>>,
}

impl App {
    /// A server of `registry`'s games kept in `store`.
    pub fn new(registry: Arc<dyn Registry + Send + Sync>, store: Arc<dyn Store>) -> App {
        App { games: Games::new(registry, store), events: Mutex::new(HashMap::new()), maps: Mutex::new(HashMap::new()) }
    }

    fn subscribe(&self, id: &str) -> broadcast::Receiver<Head> {
        let mut events = self.events.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        events.entry(id.to_string()).or_insert_with(|| broadcast::channel(16).0).subscribe()
    }

    fn notify(&self, id: &str, head: Head) {
        let mut events = self.events.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(tx) = events.get(id) {
            if tx.send(head).is_err() {
                // Nobody listens any more.
                events.remove(id);
            }
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(json!({ "error": self.message }))).into_response()
    }
}

/// The routes of `docs/web-api.md`.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(|| async { page(INDEX_HTML, "text/html; charset=utf-8") }))
        .route("/index.html", get(|| async { page(INDEX_HTML, "text/html; charset=utf-8") }))
        .route("/app.js", get(|| async { page(APP_JS, "text/javascript; charset=utf-8") }))
        .route("/style.css", get(|| async { page(STYLE_CSS, "text/css; charset=utf-8") }))
        .route("/api/scenarios", get(scenarios))
        .route("/api/maps/{file}", get(map_svg))
        .route("/api/games", post(create))
        .route("/api/games/import", post(import))
        .route("/api/games/{id}", get(show))
        .route("/api/games/{id}/actions", post(act))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/events", get(events))
        .route("/api/games/{id}/save", get(download))
        .route("/api/games/{id}/replay", get(replay))
        .route("/api/games/{id}/hint", get(hint))
        .fallback(|| async { ApiError::not_found("no such path; the API is under /api (see docs/web-api.md)") })
        .method_not_allowed_fallback(|| async {
            ApiError { status: StatusCode::METHOD_NOT_ALLOWED, message: "method not allowed on this path".into() }
        })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn(refuse_declared_overlong))
        .with_state(app)
}

/// Answers 413 at once to a request whose declared length is over [`MAX_BODY`], without
/// reading it; bodies of undeclared length are cut at the limit by [`DefaultBodyLimit`].
async fn refuse_declared_overlong(request: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return too_large().into_response();
    }
    next.run(request).await
}

fn too_large() -> ApiError {
    ApiError {
        status: StatusCode::PAYLOAD_TOO_LARGE,
        message: format!("request body too large: the limit is {MAX_BODY} bytes"),
    }
}

/// Serves `app` on `listener` until the task is dropped.
///
/// # Errors
/// The listener fails.
pub async fn listen(app: Arc<App>, listener: tokio::net::TcpListener) -> std::io::Result<()> {
    axum::serve(listener, router(app)).await
}

/// `caisson serve`: opens the database, binds `host:port` (port 0: any free port), writes
/// `listening on http://ADDR` to `out`, and serves until Ctrl-C. Every answered change is
/// already committed, so stopping at any moment loses nothing.
///
/// # Errors
/// The database cannot be opened, or the address cannot be bound.
pub fn run(
    registry: Arc<dyn Registry + Send + Sync>,
    host: IpAddr,
    port: u16,
    database: &str,
    out: &mut dyn Write,
) -> Result<(), String> {
    let store = store::open(database)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server runtime: {e}"))?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(host, port))
            .await
            .map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        writeln!(out, "listening on http://{addr}").and_then(|()| out.flush()).map_err(|e| e.to_string())?;
        let app = Arc::new(App::new(registry, store));
        tokio::select! {
            served = listen(app, listener) => served.map_err(|e| format!("server stopped: {e}")),
            _ = tokio::signal::ctrl_c() => Ok(()),
        }
    })
}

fn page(body: &'static str, content_type: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type), (header::CACHE_CONTROL, "no-cache")], body).into_response()
}

/// Runs blocking work (the engine, the store) off the async threads; a panic becomes a 500.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> Result<T, ApiError> + Send + 'static) -> Result<T, ApiError> {
    tokio::task::spawn_blocking(move || {
        catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|p| Err(internal_panic(p.as_ref())))
    })
    .await
    .unwrap_or_else(|e| Err(ApiError::internal(format!("internal error: {e}"))))
}

fn internal_panic(payload: &(dyn std::any::Any + Send)) -> ApiError {
    ApiError::internal(format!("internal error: {}. This is a bug: please report it", panic_message(payload)))
}

/// Runs `f` on game `id` under the game's lock, on a blocking thread. A panic drops the cached
/// game (the store is untouched) and becomes a 500.
async fn locked<T: Send + 'static>(
    app: &Arc<App>,
    id: String,
    f: impl FnOnce(&Games, &mut Option<Loaded>) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let slot = app.games.slot(&id);
    let mut guard = slot.clone().lock_owned().await;
    let shared = app.clone();
    let result = tokio::task::spawn_blocking(move || {
        let games = &shared.games;
        catch_unwind(AssertUnwindSafe(|| f(games, &mut guard))).unwrap_or_else(|p| {
            *guard = None;
            Err(internal_panic(p.as_ref()))
        })
    })
    .await
    .unwrap_or_else(|e| Err(ApiError::internal(format!("internal error: {e}"))));
    drop(slot);
    if result.as_ref().is_err_and(|e| e.status == StatusCode::NOT_FOUND) {
        app.games.forget(&id);
    }
    result
}

/// The token of a request: `Authorization: Bearer <token>`, else `?token=<token>`.
fn token(headers: &HeaderMap, query: &HashMap<String, String>) -> Option<String> {
    let bearer = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(|v| {
        let (scheme, token) = v.trim().split_once(' ')?;
        scheme.eq_ignore_ascii_case("bearer").then(|| token.trim().to_string())
    });
    bearer.or_else(|| query.get("token").cloned())
}

type QueryMap = Result<Query<HashMap<String, String>>, QueryRejection>;

fn query(q: QueryMap) -> Result<HashMap<String, String>, ApiError> {
    q.map(|Query(q)| q).map_err(|e| ApiError::bad_request(format!("malformed query string: {}", e.body_text())))
}

/// A request body, or why it could not be read (413 when it is too long).
fn read_body(body: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            too_large()
        } else {
            ApiError { status: e.status(), message: format!("cannot read the request body: {}", e.body_text()) }
        }
    })
}

/// A request body as a JSON object.
fn json_object(bytes: &[u8]) -> Result<Map<String, Value>, ApiError> {
    match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(ApiError::bad_request("the body must be a JSON object")),
        Err(e) => Err(ApiError::bad_request(format!("malformed JSON: {e}"))),
    }
}

fn string_field<'a>(body: &'a Map<String, Value>, name: &str) -> Result<Option<&'a str>, ApiError> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(ApiError::bad_request(format!("\"{name}\" must be a string"))),
    }
}

fn seq_field(body: &Map<String, Value>) -> Result<u64, ApiError> {
    match body.get("seq") {
        None => Err(ApiError::bad_request("missing \"seq\" (the number of actions the game had when you saw it)")),
        Some(v) => v.as_u64().ok_or_else(|| ApiError::bad_request("\"seq\" must be a whole number, 0 or more")),
    }
}

/// Mode, computer side and bot of a creation or import request.
fn mode_fields(body: &Map<String, Value>) -> Result<(Mode, Option<String>, Bot), ApiError> {
    let mode = match string_field(body, "mode")? {
        None => Mode::Hotseat,
        Some(m) => Mode::parse(m)
            .ok_or_else(|| ApiError::bad_request(format!("mode `{m}`: expected `hotseat`, `computer` or `online`")))?,
    };
    let bot = match string_field(body, "bot")? {
        None => Bot::Ai(Level::default()),
        Some(name) => Bot::parse(name).ok_or_else(|| {
            ApiError::bad_request(format!("bot `{name}`: the computer players are {}", Bot::NAMES.join(", ")))
        })?,
    };
    let computer = match (mode, string_field(body, "computer")?) {
        (Mode::Computer, None) => Some("confederate".to_string()),
        (Mode::Computer, Some(side)) if SIDES.contains(&side) => Some(side.to_string()),
        (Mode::Computer, Some(side)) => {
            return Err(ApiError::bad_request(format!("computer side `{side}`: expected `union` or `confederate`")))
        }
        (_, _) => None,
    };
    Ok((mode, computer, bot))
}

async fn scenarios(State(app): State<Arc<App>>) -> Result<Response, ApiError> {
    let list = blocking(move || app.games.registry().scenarios().map_err(ApiError::internal)).await?;
    Ok(Json(list).into_response())
}

async fn map_svg(State(app): State<Arc<App>>, Path(file): Path<String>) -> Result<Response, ApiError> {
    let Some(map) = file.strip_suffix(".svg").map(str::to_string) else {
        return Err(ApiError::not_found(format!("no map file `{file}`: maps are `/api/maps/<map>.svg`")));
    };
    let cached = app.maps.lock().unwrap_or_else(std::sync::PoisonError::into_inner).get(&map).cloned();
    let svg = match cached {
        Some(svg) => svg,
        None => {
            let shared = app.clone();
            let name = map.clone();
            let svg: Arc<str> =
                blocking(move || shared.games.registry().render_map_svg(&name).map_err(ApiError::not_found))
                    .await?
                    .into();
            app.maps.lock().unwrap_or_else(std::sync::PoisonError::into_inner).insert(map, svg.clone());
            svg
        }
    };
    Ok(([(header::CONTENT_TYPE, "image/svg+xml")], svg.to_string()).into_response())
}

async fn create(State(app): State<Arc<App>>, body: Result<Bytes, BytesRejection>) -> Result<Response, ApiError> {
    let body = json_object(&read_body(body)?)?;
    let scenario = string_field(&body, "scenario")?
        .ok_or_else(|| ApiError::bad_request("missing \"scenario\" (a scenario id from /api/scenarios)"))?
        .to_string();
    let seed = match body.get("seed") {
        None | Some(Value::Null) => {
            let hex = seats::random_hex(8).map_err(ApiError::internal)?;
            u64::from_str_radix(&hex, 16).map_err(|e| ApiError::internal(e.to_string()))?
        }
        Some(v) => v
            .as_u64()
            .ok_or_else(|| ApiError::bad_request(format!("\"seed\" must be a whole number from 0 to {}", u64::MAX)))?,
    };
    let (mode, computer, bot) = mode_fields(&body)?;
    let shared = app.clone();
    let (record, loaded) = blocking(move || {
        let system = shared.games.registry().system().to_string();
        // The Liddell-bot as the Confederate computer plays pv-16-0's solo variant (EX 16.0d);
        // another scenario refuses the option (a 400 naming it).
        let liddell = bot == Bot::Liddell && computer.as_deref() == Some("confederate");
        let options = if liddell { vec!["solo=liddell".to_string()] } else { Vec::new() };
        let setup = Setup { system, scenario, seed, dice: DiceMode::Seeded, options };
        shared.games.create(NewGame { setup, mode, computer, bot }, None)
    })
    .await?;
    created(&app, record, loaded).await
}

async fn import(State(app): State<Arc<App>>, body: Result<Bytes, BytesRejection>) -> Result<Response, ApiError> {
    let body = json_object(&read_body(body)?)?;
    let (save, mode, computer, bot) = match body.get("save") {
        Some(save) => {
            let (mode, computer, bot) = mode_fields(&body)?;
            (save.clone(), mode, computer, bot)
        }
        None => (Value::Object(body), Mode::Hotseat, None, Bot::Random),
    };
    let save: Save =
        serde_json::from_value(save).map_err(|e| ApiError::bad_request(format!("not a Caisson save: {e}")))?;
    let shared = app.clone();
    let (record, loaded) = blocking(move || {
        let new = NewGame { setup: save.setup.clone(), mode, computer, bot };
        shared.games.create(new, Some(&save))
    })
    .await?;
    created(&app, record, loaded).await
}

/// Caches a new game and answers 201 with its seats.
async fn created(app: &Arc<App>, record: store::GameRecord, loaded: Loaded) -> Result<Response, ApiError> {
    let slot = app.games.slot(&record.id);
    *slot.lock().await = Some(loaded);
    Ok((StatusCode::CREATED, Json(seats_json(&record))).into_response())
}

/// What a read (the game, a hint) answers from a fresh game and the request's seat.
type Read = fn(&Loaded, seats::Seat) -> Result<Value, ApiError>;

/// Answers a read of game `id` under its lock, for the seat the request's token opens.
async fn read(app: Arc<App>, id: String, headers: &HeaderMap, q: QueryMap, answer: Read) -> Result<Response, ApiError> {
    let token = token(headers, &query(q)?);
    let body = locked(&app, id.clone(), move |games, slot| {
        let loaded = games.fresh(&id, slot)?;
        let seat = seat(&loaded.record, token.as_deref())?;
        answer(loaded, seat)
    })
    .await?;
    Ok(Json(body).into_response())
}

async fn show(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    q: QueryMap,
) -> Result<Response, ApiError> {
    read(app, id, &headers, q, |loaded, seat| Ok(game_json(loaded, loaded.game.as_ref(), seat, true))).await
}

/// What a change (action or undo) does to a fresh game under its lock.
type Change = fn(&Games, &mut Option<Loaded>, seats::Seat, u64, &Map<String, Value>) -> Result<(), ApiError>;

async fn change(
    app: Arc<App>,
    id: String,
    headers: &HeaderMap,
    q: QueryMap,
    body: Result<Bytes, BytesRejection>,
    apply: Change,
) -> Result<Response, ApiError> {
    let token = token(headers, &query(q)?);
    let body = read_body(body)?;
    let outcome = locked(&app, id.clone(), move |games, slot| {
        let loaded = games.fresh(&id, slot)?;
        let seat = seat(&loaded.record, token.as_deref())?;
        let body = json_object(&body)?;
        let seq = seq_field(&body)?;
        apply(games, slot, seat, seq, &body)?;
        let loaded = slot.as_ref().ok_or_else(|| ApiError::internal("the game was dropped"))?;
        Ok((game_json(loaded, loaded.game.as_ref(), seat, true), loaded.record.id.clone(), loaded.head))
    })
    .await;
    let (game, id, head) = outcome?;
    app.notify(&id, head);
    Ok(Json(game).into_response())
}

async fn act(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    q: QueryMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    change(app, id, &headers, q, body, |games, slot, seat, seq, body| {
        let option = string_field(body, "option")?
            .ok_or_else(|| ApiError::bad_request("missing \"option\" (an option id from the decision)"))?;
        games.act(slot, seat, seq, option)
    })
    .await
}

async fn undo(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    q: QueryMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    change(app, id, &headers, q, body, |games, slot, seat, seq, _| games.undo(slot, seat, seq)).await
}

async fn replay(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    q: QueryMap,
) -> Result<Response, ApiError> {
    let q = query(q)?;
    let token = token(&headers, &q);
    let at = q.get("at").cloned();
    let game = locked(&app, id.clone(), move |games, slot| {
        let loaded = games.fresh(&id, slot)?;
        let seat = seat(&loaded.record, token.as_deref())?;
        let at = at
            .ok_or_else(|| ApiError::bad_request("missing `?at=K` (the number of actions to replay)"))?
            .parse::<usize>()
            .map_err(|_| ApiError::bad_request("`at` must be a whole number, 0 or more"))?;
        let actions = loaded.game.actions();
        let Some(first) = actions.get(..at) else {
            return Err(ApiError::bad_request(format!(
                "`at` is {at}, but the game has only {} actions",
                actions.len()
            )));
        };
        let past = games
            .replay(&loaded.record.setup, first)
            .map_err(|e| ApiError::internal(format!("stored game `{id}` does not replay: {e}")))?;
        Ok(game_json(loaded, past.as_ref(), seat, false))
    })
    .await?;
    Ok(Json(game).into_response())
}

async fn hint(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    q: QueryMap,
) -> Result<Response, ApiError> {
    read(app, id, &headers, q, hint_json).await
}

async fn download(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    q: QueryMap,
) -> Result<Response, ApiError> {
    let token = token(&headers, &query(q)?);
    let (text, name) = locked(&app, id.clone(), move |games, slot| {
        let loaded = games.fresh(&id, slot)?;
        seat(&loaded.record, token.as_deref())?;
        let name = format!("caisson-{}-{}.json", loaded.record.setup.scenario, loaded.record.id);
        Ok((loaded.game.save().to_json(), name))
    })
    .await?;
    // Scenario ids and game ids are plain ASCII; anything else falls back to a fixed name.
    let disposition = HeaderValue::from_str(&format!("attachment; filename=\"{name}\""))
        .unwrap_or_else(|_| HeaderValue::from_static("attachment; filename=\"caisson-save.json\""));
    Ok((
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("application/json")),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        text,
    )
        .into_response())
}

/// An event stream's state: what it last reported.
struct Watch {
    app: Arc<App>,
    id: String,
    rx: broadcast::Receiver<Head>,
    last: Option<Head>,
    first: Option<Head>,
}

fn update(head: Head) -> Event {
    Event::default().event("update").data(json!({ "seq": head.seq }).to_string())
}

async fn events(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    q: QueryMap,
) -> Result<Response, ApiError> {
    let token = token(&headers, &query(q)?);
    let key = id.clone();
    let head = locked(&app, id.clone(), move |games, slot| {
        let loaded = games.fresh(&key, slot)?;
        seat(&loaded.record, token.as_deref())?;
        Ok(loaded.head)
    })
    .await?;
    let rx = app.subscribe(&id);
    let watch = Watch { app, id, rx, last: None, first: Some(head) };
    let stream = futures_util::stream::unfold(watch, |mut w| async move {
        if let Some(head) = w.first.take() {
            w.last = Some(head);
            return Some((Ok::<Event, std::convert::Infallible>(update(head)), w));
        }
        loop {
            let seen = tokio::select! {
                got = w.rx.recv() => match got {
                    Ok(head) => Some(head),
                    Err(broadcast::error::RecvError::Lagged(_)) => None,
                    Err(broadcast::error::RecvError::Closed) => {
                        w.rx = w.app.subscribe(&w.id);
                        None
                    }
                },
                () = tokio::time::sleep(POLL) => None,
            };
            let head = match seen {
                Some(head) => Some(head),
                None => {
                    let (app, id) = (w.app.clone(), w.id.clone());
                    match blocking(move || app.games.store().head(&id).map_err(|e| ApiError::internal(e.to_string())))
                        .await
                    {
                        Ok(Some(head)) => Some(head),
                        // The game is gone: end the stream.
                        Ok(None) => return None,
                        Err(_) => None,
                    }
                }
            };
            if let Some(head) = head.filter(|h| Some(*h) != w.last) {
                w.last = Some(head);
                return Some((Ok(update(head)), w));
            }
        }
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()).into_response())
}
