//! What every game's engine reports while it plays, and who listens.
//!
//! A game's table implements [`Observed`] (its event type and how a game
//! ends); the statistics accumulator and the trace of that game implement
//! [`Observer`] for it. [`Silent`] listens to nothing, a pair `(A, B)`
//! feeds both, and `&mut O` lends an observer without giving it away. An
//! observer whose [`Observer::EVENTS`] is false never sees
//! [`Observer::event`]: the game builds no events for it, so a run without
//! a trace pays nothing for the trace.
//!
//! [`TraceWriter`] is where a game's trace observer writes its
//! play-by-play, in one of two [`TraceFormat`]s from the same observer
//! hooks: readable lines, or JSON Lines (one object per event, each with
//! the game number and the event's name first). It numbers the games and
//! keeps the first write error, so that a closed pipe (`--trace | head`)
//! ends the run early and quietly.

use std::io::Write;

/// A game state that observers watch.
pub trait Observed {
    /// One thing that happened (a card flipped, a decision made, ...).
    type Event: Copy;
    /// How a game ended (the winner, a tie, ...).
    type End: Copy;
}

/// Receives what happens in games played on a `T`.
pub trait Observer<T: Observed + ?Sized> {
    /// Whether [`Observer::event`] is wanted. When false the game builds no
    /// events at all.
    const EVENTS: bool;
    /// One event, right after it happened.
    #[inline]
    fn event(&mut self, _t: &T, _e: T::Event) {}
    /// A round has been scored (games played in rounds only).
    #[inline]
    fn round_end(&mut self, _t: &T) {}
    /// The game is over.
    #[inline]
    fn game_end(&mut self, _t: &T, _end: T::End) {}
    /// The next game is played with the generator of this seed
    /// ([`crate::engine::rng::seeded_game_rng`]). Told only to a trace
    /// (the runner's untraced loop never calls it), before the game's
    /// first event.
    #[inline]
    fn game_seed(&mut self, _seed: u64) {}
}

/// An observer that records nothing.
pub struct Silent;

impl<T: Observed + ?Sized> Observer<T> for Silent {
    const EVENTS: bool = false;
}

/// Two observers at once: the first hears everything before the second.
impl<T: Observed + ?Sized, A: Observer<T>, B: Observer<T>> Observer<T> for (A, B) {
    const EVENTS: bool = A::EVENTS || B::EVENTS;
    #[inline]
    fn event(&mut self, t: &T, e: T::Event) {
        if A::EVENTS {
            self.0.event(t, e);
        }
        if B::EVENTS {
            self.1.event(t, e);
        }
    }
    #[inline]
    fn round_end(&mut self, t: &T) {
        self.0.round_end(t);
        self.1.round_end(t);
    }
    #[inline]
    fn game_end(&mut self, t: &T, end: T::End) {
        self.0.game_end(t, end);
        self.1.game_end(t, end);
    }
    #[inline]
    fn game_seed(&mut self, seed: u64) {
        self.0.game_seed(seed);
        self.1.game_seed(seed);
    }
}

/// An observer lent by reference.
impl<T: Observed + ?Sized, O: Observer<T>> Observer<T> for &mut O {
    const EVENTS: bool = O::EVENTS;
    #[inline]
    fn event(&mut self, t: &T, e: T::Event) {
        (**self).event(t, e)
    }
    #[inline]
    fn round_end(&mut self, t: &T) {
        (**self).round_end(t)
    }
    #[inline]
    fn game_end(&mut self, t: &T, end: T::End) {
        (**self).game_end(t, end)
    }
    #[inline]
    fn game_seed(&mut self, seed: u64) {
        (**self).game_seed(seed)
    }
}

/// How a trace is written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum TraceFormat {
    /// Readable play-by-play, one line per event.
    #[default]
    Text,
    /// JSON Lines: one object per event (`game`, `event`, then its fields).
    Json,
}

/// Where a trace goes: lines of play-by-play, the number of the game being
/// played, and the first write error.
pub struct TraceWriter<'a> {
    out: &'a mut dyn Write,
    format: TraceFormat,
    game: u64,
    /// The seed of the game being played, until its first event carries it.
    seed: Option<u64>,
    /// Set while a game is played on after the counted ones (see
    /// [`TraceWriter::set_played_on`]).
    played_on: Option<u32>,
    error: Option<std::io::Error>,
}

impl<'a> TraceWriter<'a> {
    /// A readable trace into `out` whose first game is game `first_game`
    /// (0-based).
    pub fn new(out: &'a mut dyn Write, first_game: u64) -> TraceWriter<'a> {
        TraceWriter::with_format(out, TraceFormat::Text, first_game)
    }

    /// A trace in `format` into `out`, from game `first_game`.
    pub fn with_format(out: &'a mut dyn Write, format: TraceFormat, first_game: u64) -> TraceWriter<'a> {
        TraceWriter {
            out,
            format,
            game: first_game,
            seed: None,
            played_on: None,
            error: None,
        }
    }

    /// Whether events are written as JSON Lines (else as text lines).
    pub fn json(&self) -> bool {
        self.format == TraceFormat::Json
    }

    /// Writes one event as a JSON object on its own line: `game` (and
    /// `played_on` for a game played on), then `event`, then `seed` (a
    /// string) in the first event of a game whose seed is known
    /// ([`TraceWriter::game_seed`]), then `fields` in their order.
    pub fn event(&mut self, event: &str, fields: serde_json::Value) {
        let mut obj = serde_json::Map::new();
        obj.insert("game".into(), self.game.into());
        if let Some(k) = self.played_on {
            obj.insert("played_on".into(), k.into());
        }
        obj.insert("event".into(), event.into());
        if let Some(seed) = self.seed.take() {
            obj.insert("seed".into(), seed.to_string().into());
        }
        if let serde_json::Value::Object(rest) = fields {
            obj.extend(rest);
        }
        if self.error.is_none() {
            let written = serde_json::to_writer(&mut *self.out, &serde_json::Value::Object(obj))
                .map_err(std::io::Error::from)
                .and_then(|_| self.out.write_all(b"\n"));
            if let Err(e) = written {
                self.error = Some(e);
            }
        }
    }

    /// The number of the game being played (0-based).
    pub fn game(&self) -> u64 {
        self.game
    }

    /// The seed of the game about to be played: the first JSON event
    /// written after this carries it (`"seed": "<digits>"`).
    pub fn game_seed(&mut self, seed: u64) {
        self.seed = Some(seed);
    }

    /// Marks the games that follow as played on after the counted games
    /// (`Some(k)`: the k-th such game, from 1), or as counted again
    /// (`None`). A played-on game keeps the number of the counted game it
    /// follows, and every JSON event of it carries `played_on`.
    pub fn set_played_on(&mut self, k: Option<u32>) {
        self.played_on = k;
    }

    /// `Some(k)` while the k-th game played on is traced.
    pub fn played_on(&self) -> Option<u32> {
        self.played_on
    }

    /// The game is over: the next one has the next number.
    pub fn next_game(&mut self) {
        self.game += 1;
    }

    /// Numbers the games from `game` on (the runner does this per batch).
    pub fn start_at(&mut self, game: u64) {
        self.game = game;
    }

    /// Writes one line. After a write error nothing more is written.
    pub fn line(&mut self, text: std::fmt::Arguments<'_>) {
        if self.error.is_none()
            && let Err(e) = self.out.write_fmt(text).and_then(|_| self.out.write_all(b"\n"))
        {
            self.error = Some(e);
        }
    }

    /// Whether a write has failed (the reader may have gone).
    pub fn failed(&self) -> bool {
        self.error.is_some()
    }

    /// Flushes, and returns the first error of the whole trace.
    pub fn finish(mut self) -> std::io::Result<()> {
        match self.error.take() {
            Some(e) => Err(e),
            None => self.out.flush(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Toy;
    impl Observed for Toy {
        type Event = u8;
        type End = bool;
    }

    #[derive(Default)]
    struct Log(Vec<String>);
    impl Observer<Toy> for Log {
        const EVENTS: bool = true;
        fn event(&mut self, _: &Toy, e: u8) {
            self.0.push(format!("e{e}"));
        }
        fn round_end(&mut self, _: &Toy) {
            self.0.push("r".into());
        }
        fn game_end(&mut self, _: &Toy, end: bool) {
            self.0.push(format!("g{end}"));
        }
    }

    #[derive(Default)]
    struct Ends(u32);
    impl Observer<Toy> for Ends {
        const EVENTS: bool = false;
        fn event(&mut self, _: &Toy, _: u8) {
            panic!("an observer without EVENTS is never sent events through a pair");
        }
        fn game_end(&mut self, _: &Toy, _: bool) {
            self.0 += 1;
        }
    }

    fn play<O: Observer<Toy>>(o: &mut O) {
        if O::EVENTS {
            o.event(&Toy, 1);
            o.event(&Toy, 2);
        }
        o.round_end(&Toy);
        o.game_end(&Toy, true);
    }

    #[test]
    fn pairs_feed_both_and_events_only_to_those_that_want_them() {
        let (mut log, mut ends) = (Log::default(), Ends::default());
        play(&mut (&mut log, &mut ends));
        assert_eq!(log.0, ["e1", "e2", "r", "gtrue"]);
        assert_eq!(ends.0, 1);
        const { assert!(!<(Silent, Ends) as Observer<Toy>>::EVENTS) };
        const { assert!(<(Silent, Log) as Observer<Toy>>::EVENTS) };
        play(&mut Silent);
    }

    /// A writer that fails after `ok` bytes, like a pipe whose reader left.
    struct Closing {
        ok: usize,
    }
    impl Write for Closing {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            if self.ok < b.len() {
                return Err(std::io::ErrorKind::BrokenPipe.into());
            }
            self.ok -= b.len();
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn trace_writer_keeps_the_first_error_and_stops_writing() {
        let mut sink = Closing { ok: 7 };
        let mut w = TraceWriter::new(&mut sink, 7);
        w.line(format_args!("game {}", w.game()));
        assert!(!w.failed());
        w.line(format_args!("more"));
        assert!(w.failed());
        w.line(format_args!("never written"));
        w.next_game();
        assert_eq!(w.game(), 8);
        assert_eq!(w.finish().unwrap_err().kind(), std::io::ErrorKind::BrokenPipe);
        let mut buf = Vec::new();
        let mut w = TraceWriter::new(&mut buf, 0);
        w.line(format_args!("a {}", 1));
        w.finish().unwrap();
        assert_eq!(buf, b"a 1\n");
    }

    #[test]
    fn json_events_put_the_game_and_the_event_first() {
        let mut buf = Vec::new();
        let mut w = TraceWriter::with_format(&mut buf, TraceFormat::Json, 3);
        assert!(w.json());
        w.event("flip", serde_json::json!({"seat": 1, "card": "x2", "a": [1, 2]}));
        w.next_game();
        w.event("end", serde_json::json!({}));
        w.finish().unwrap();
        let text = String::from_utf8(buf).unwrap();
        assert_eq!(
            text,
            "{\"game\":3,\"event\":\"flip\",\"seat\":1,\"card\":\"x2\",\"a\":[1,2]}\n{\"game\":4,\"event\":\"end\"}\n"
        );
    }
}
