//! Policies written as code by a user of the library: the registry every
//! game's spec parser consults, and the parameters of a user's spec.
//!
//! A game that takes user policies implements [`Custom`]: it names the
//! decision a user writes ([`Custom::Decide`], a closure type over the
//! game's view of what a player knows) and accepts that decision as one
//! part of its specs. A program registers a user policy with
//! [`crate::cli::Builder::policy`]; from then on the game's
//! [`Game::parse_policy`] accepts its name (with its parameters, as in
//! `leader-aware:170`), so every command that parses specs (runs,
//! tournaments, sweeps, shards and merge, strategy files) accepts it too.
//!
//! A spec of a user policy is made once per process and kept (a leaked
//! allocation per distinct spec), so that a parsed policy is a plain
//! pointer: the games' policies stay `Copy`, and a decision is one call
//! through it, with no look-up.
//!
//! This module names no game.

use std::any::Any;
use std::fmt;
use std::ops::RangeInclusive;
use std::str::FromStr;
use std::sync::{Mutex, RwLock};

use super::game::Game;

/// A game whose policies can be written as code.
pub trait Custom: Game {
    /// The decision a user policy makes, as an unsized closure type over
    /// the game's view (Flip 7: `dyn Fn(&PlayerView) -> bool + Send +
    /// Sync`, hit or stay).
    type Decide: ?Sized + Send + Sync + 'static;
    /// What a user policy is and how a spec takes it, in a few words, for
    /// `--list-policies` (`a call rule: one part of a spec, ...`).
    const DECIDES: &'static str;
}

/// A closure that is a decision of game `G`: implemented by each game for
/// the closures of its [`Custom::Decide`] shape, so that a user writes a
/// plain closure and never names the boxed type.
pub trait Decision<G: Custom>: Send + Sync + 'static {
    /// The closure, boxed as the game keeps it.
    fn boxed(self) -> Box<G::Decide>;
}

/// One user policy parsed from a spec: the spec as written and the
/// decision it made. Copied as a pointer; equal when the specs are.
pub struct User<D: ?Sized + 'static>(&'static Made<D>);

/// What a spec of a user policy made (kept for the whole process).
struct Made<D: ?Sized> {
    spec: String,
    decide: Box<D>,
}

impl<D: ?Sized> User<D> {
    /// The spec the policy was parsed from (`leader-aware:170`).
    pub fn spec(&self) -> &'static str {
        &self.0.spec
    }

    /// The decision.
    #[inline(always)]
    pub fn decide(&self) -> &'static D {
        &self.0.decide
    }
}

impl<D: ?Sized> Clone for User<D> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<D: ?Sized> Copy for User<D> {}

impl<D: ?Sized> PartialEq for User<D> {
    fn eq(&self, other: &Self) -> bool {
        self.0.spec == other.0.spec
    }
}

impl<D: ?Sized> Eq for User<D> {}

impl<D: ?Sized> fmt::Debug for User<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "User({:?})", self.0.spec)
    }
}

impl<D: ?Sized> fmt::Display for User<D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.spec)
    }
}

/// The parameters of a user policy's spec, as its form names them: the
/// spec `leader-aware:170` of the form `leader-aware:N` has `N` = `170`.
/// Its readers refuse a bad value with the message a built-in spec gives,
/// naming the parameter, what is accepted and the form.
pub struct Params<'a> {
    form: &'a str,
    names: Vec<&'a str>,
    values: Vec<&'a str>,
}

impl<'a> Params<'a> {
    /// The value written for parameter `name`, as text.
    ///
    /// # Panics
    /// When the form has no parameter `name` (a mistake in the program,
    /// not in the spec).
    pub fn text(&self, name: &str) -> &'a str {
        let i = self
            .names
            .iter()
            .position(|n| *n == name)
            .unwrap_or_else(|| panic!("the user policy '{}' has no parameter {name}", self.form));
        self.values[i].trim()
    }

    /// Parameter `name` as a whole number within `range`, e.g.
    /// `p.whole("N", 0..=1000)`; otherwise the error `N must be a whole
    /// number from 0 to 1000 (leader-aware:N)`.
    pub fn whole<T>(&self, name: &str, range: RangeInclusive<T>) -> Result<T, String>
    where
        T: FromStr + PartialOrd + fmt::Display,
    {
        let text = self.text(name);
        match text.parse::<T>() {
            Ok(x) if range.contains(&x) && !text.starts_with('+') => Ok(x),
            _ => Err(format!(
                "{name} must be a whole number from {} to {} ({})",
                range.start(),
                range.end(),
                self.form
            )),
        }
    }

    /// Parameter `name` as a number within `range`, e.g.
    /// `p.number("P", 0.0..=1.0)`; otherwise the error `P must be a number
    /// from 0 to 1 (call-when:P)`.
    pub fn number(&self, name: &str, range: RangeInclusive<f64>) -> Result<f64, String> {
        let text = self.text(name);
        match text.parse::<f64>() {
            Ok(x) if x.is_finite() && range.contains(&x) => Ok(x),
            _ => Err(format!(
                "{name} must be a number from {} to {} ({})",
                range.start(),
                range.end(),
                self.form
            )),
        }
    }
}

/// The maker of a registered policy: its decision from a spec's
/// parameters, type-erased (a `Box<G::Decide>` inside the `Any`).
type Maker = Box<dyn Fn(&Params) -> Result<Box<dyn Any + Send + Sync>, String> + Send + Sync>;

/// One registered user policy.
struct Registered {
    game: &'static str,
    /// `leader-aware:N`.
    form: String,
    /// `leader-aware`.
    name: String,
    /// The parameter names of the form (`N`), none for a bare name.
    params: Vec<String>,
    does: String,
    /// The game's [`Custom::DECIDES`].
    decides: &'static str,
    make: Maker,
}

/// Every user policy registered in this process.
static REGISTERED: RwLock<Vec<Registered>> = RwLock::new(Vec::new());

/// Every spec of a user policy made so far: (game, spec, the `Made`).
type MadeList = Vec<(&'static str, String, &'static (dyn Any + Send + Sync))>;
static MADE: Mutex<MadeList> = Mutex::new(Vec::new());

/// The name and parameter names of a form (`leader-aware:N/M`), or why it
/// is no form.
fn split_form(form: &str) -> Result<(String, Vec<String>), String> {
    let (name, params) = match form.split_once(':') {
        Some((n, p)) => (n, p.split('/').map(str::to_string).collect()),
        None => (form, Vec::new()),
    };
    let word = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    if !word(name) || !name.starts_with(|c: char| c.is_ascii_lowercase()) {
        return Err(format!(
            "the user policy '{form}': its name must start with a lower-case letter and hold only \
             letters, digits and '-' (e.g. leader-aware or leader-aware:N)"
        ));
    }
    if params.iter().any(|p: &String| !word(p)) {
        return Err(format!(
            "the user policy '{form}': its parameters are names joined by '/' after a ':' (e.g. \
             call-when:P or call-when:P/Q)"
        ));
    }
    Ok((name.to_string(), params))
}

/// Registers the user policy `form` (`leader-aware:N`) of game `G`, which
/// does `does`; `make` makes its decision from a spec's parameters.
/// Refused when the form is malformed or its name is taken, by another
/// user policy of the game or by a built-in spec.
pub fn register<G, F, M>(form: &str, does: &str, make: M) -> Result<(), String>
where
    G: Custom,
    F: Decision<G>,
    M: Fn(&Params) -> Result<F, String> + Send + Sync + 'static,
{
    let (name, params) = split_form(form)?;
    let mut all = REGISTERED.write().unwrap_or_else(|e| e.into_inner());
    if all.iter().any(|r| r.game == G::NAME && r.name == name) {
        return Err(format!(
            "the user policy '{form}' of {} is registered twice",
            G::NAME
        ));
    }
    drop(all);
    // A built-in spec of that name (with or without a parameter) wins:
    // refuse the registration rather than hide the user policy.
    let built_in = [name.clone(), format!("{name}:1"), format!("{name}-1")]
        .iter()
        .any(|s| G::parse_policy(s).is_ok());
    if built_in {
        return Err(format!(
            "the user policy '{form}' of {}: '{name}' is a built-in spec; choose another name",
            G::NAME
        ));
    }
    all = REGISTERED.write().unwrap_or_else(|e| e.into_inner());
    all.push(Registered {
        game: G::NAME,
        form: form.to_string(),
        name,
        params,
        does: does.to_string(),
        decides: G::DECIDES,
        make: Box::new(move |p| make(p).map(|f| Box::new(f.boxed()) as Box<dyn Any + Send + Sync>)),
    });
    Ok(())
}

/// The user policy of game `game` that `part` of a spec names, made (or
/// found made) with its parameters: `None` when no user policy of the
/// game has that name, an error (`'leader-aware:x': N must be ...`) when
/// its parameters are refused. `D` is the game's [`Custom::Decide`].
pub fn parse<D: ?Sized + Send + Sync + 'static>(
    game: &'static str,
    part: &str,
) -> Option<Result<User<D>, String>> {
    let part = part.trim();
    let (name, values) = match part.split_once(':') {
        Some((n, v)) => (n, Some(v)),
        None => (part, None),
    };
    let all = REGISTERED.read().unwrap_or_else(|e| e.into_inner());
    let r = all.iter().find(|r| r.game == game && r.name == name)?;
    let values: Vec<&str> = match values {
        None => Vec::new(),
        Some(v) => v.split('/').collect(),
    };
    if values.len() != r.params.len() {
        let wanted = match r.params.len() {
            0 => "no parameter".to_string(),
            1 => format!("the parameter {}", r.params[0]),
            _ => format!("the parameters {}", r.params.join(", ")),
        };
        return Some(Err(format!("'{part}': {} takes {wanted} ({})", r.name, r.form)));
    }
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, _, m)) = made.iter().find(|(g, s, _)| *g == game && s == part) {
        let m = m.downcast_ref::<Made<D>>().expect("one decision type per game");
        return Some(Ok(User(m)));
    }
    let params = Params {
        form: &r.form,
        names: r.params.iter().map(String::as_str).collect(),
        values,
    };
    let decide = match (r.make)(&params) {
        Ok(d) => d,
        Err(e) => return Some(Err(format!("'{part}': {e}"))),
    };
    let decide = *decide
        .downcast::<Box<D>>()
        .expect("a game's decisions have its Decide type");
    let m: &'static Made<D> = Box::leak(Box::new(Made {
        spec: part.to_string(),
        decide,
    }));
    made.push((game, part.to_string(), m));
    Some(Ok(User(m)))
}

/// The user policies of game `game`: (form, what it does), in the order
/// registered.
pub fn listed(game: &str) -> Vec<(String, String)> {
    let all = REGISTERED.read().unwrap_or_else(|e| e.into_inner());
    all.iter()
        .filter(|r| r.game == game)
        .map(|r| (r.form.clone(), r.does.clone()))
        .collect()
}

/// What a user policy of game `game` decides ([`Custom::DECIDES`]), if
/// the game has any registered.
pub fn decides(game: &str) -> Option<&'static str> {
    let all = REGISTERED.read().unwrap_or_else(|e| e.into_inner());
    all.iter().find(|r| r.game == game).map(|r| r.decides)
}

/// What a game's list of accepted specs gains from its user policies:
/// `; user policies: leader-aware:N`, or nothing when it has none.
pub fn accepted(game: &str) -> String {
    let forms: Vec<String> = listed(game).into_iter().map(|(f, _)| f).collect();
    if forms.is_empty() {
        String::new()
    } else {
        format!("; user policies: {}", forms.join(", "))
    }
}
