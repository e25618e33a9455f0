//! Property tests of every parser of user input (counts, seeds, policy
//! specs of every game, sweep ranges, strategy files): any input gives a
//! value or a clear error, never a panic or a hang, and what is accepted
//! reads back to itself.
//!
//! Each property is checked on [`CASES`] inputs drawn from a fixed seed,
//! so a failure repeats; its message names the input.

use rand::{RngExt, SeedableRng};

use sim::engine::args::{format_count, parse_count, parse_seed};
use sim::engine::game::{Game, Visitor};
use sim::engine::rng::SimRng;
use sim::engine::strategies::{Origin, parse_strategy};
use sim::studies::expand::{MAX_POINTS, expand};

/// Inputs per property.
const CASES: usize = 2000;

/// `CASES` inputs made by `make` from a generator seeded by `seed`, each
/// passed to `check`.
fn each_input(seed: u64, make: fn(&mut SimRng) -> String, check: impl Fn(&str)) {
    let mut rng = SimRng::seed_from_u64(seed);
    for _ in 0..CASES {
        let text = make(&mut rng);
        check(&text);
    }
}

/// `1..=max` characters (`0..=max` when `empty`) drawn from `chars`.
fn run_of(rng: &mut SimRng, chars: &[u8], empty: bool, max: usize) -> String {
    let n = rng.random_range(usize::from(!empty)..=max);
    (0..n)
        .map(|_| char::from(chars[rng.random_range(0..chars.len())]))
        .collect()
}

/// Up to `max` printable characters from all of Unicode: ASCII, accented
/// Latin, Cyrillic, CJK, emoji (no control characters).
fn any_text(rng: &mut SimRng, max: usize) -> String {
    const RANGES: [(u32, u32); 5] = [
        (0x20, 0x7E),
        (0xA1, 0x17F),
        (0x400, 0x4FF),
        (0x4E00, 0x9FFF),
        (0x1F300, 0x1F64F),
    ];
    let n = rng.random_range(0..=max);
    (0..n)
        .map(|_| {
            let (lo, hi) = RANGES[rng.random_range(0..RANGES.len())];
            char::from_u32(rng.random_range(lo..=hi)).expect("the ranges hold no surrogates")
        })
        .collect()
}

const DIGITS: &[u8] = b"0123456789";
const LOWER: &[u8] = b"abcdefghijklmnopqrstuvwxyz";
const LOWER_AND_DIGITS: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";

/// Text built from the pieces these parsers look for, so that the inputs
/// reach deep into them rather than failing at the first character: up
/// to seven pieces.
fn spec_text(rng: &mut SimRng) -> String {
    const WORDS: [&str; 15] = [
        "stay-at-", "call-at:", "+", ",", ":", "{", "}", "..", "-", ".", "e", "freeze", "flip-", "place-",
        "default",
    ];
    let pieces = rng.random_range(0..8);
    let mut text = String::new();
    for _ in 0..pieces {
        match rng.random_range(0..WORDS.len() + 3) {
            i if i < WORDS.len() => text.push_str(WORDS[i]),
            i if i == WORDS.len() => text.push_str(&run_of(rng, DIGITS, false, 25)),
            i if i == WORDS.len() + 1 => text.push_str(&run_of(rng, LOWER, false, 6)),
            _ => text.push_str(&any_text(rng, 3)),
        }
    }
    text
}

/// A number as a sweep range holds one: whole or with decimals, at times
/// negative or far too long.
fn number(rng: &mut SimRng) -> String {
    match rng.random_range(0..4) {
        0 => rng.random_range(0..100).to_string(),
        1 => format!("{:.2}", rng.random_range(0..1000) as f64 / 100.0),
        2 => format!("-{}", rng.random_range(0..50)),
        _ => run_of(rng, DIGITS, false, 25),
    }
}

/// Half the time [`spec_text`], otherwise a spec with a range group: a
/// few pieces, then `{A..B}`, `{A..B..STEP}` or a list `{A,B,...}`, then
/// a few more.
fn sweep_text(rng: &mut SimRng) -> String {
    if rng.random_range(0..2) == 0 {
        return spec_text(rng);
    }
    let group = match rng.random_range(0..3) {
        0 => format!("{}..{}", number(rng), number(rng)),
        1 => format!("{}..{}..{}", number(rng), number(rng), number(rng)),
        _ => {
            let items: Vec<String> = (0..rng.random_range(1..5)).map(|_| number(rng)).collect();
            items.join(",")
        }
    };
    let (before, after) = (spec_text(rng), spec_text(rng));
    format!("{before}{{{group}}}{after}")
}

/// A strategy file of up to five lines, from the keys and sections such
/// files hold and from anything else.
fn strategy_text(rng: &mut SimRng) -> String {
    const LINES: [&str; 5] = [
        "game = \"flip7\"",
        "policy = \"stay-at-20\"",
        "description = 'x'",
        "[table]",
        "\u{feff}",
    ];
    let n = rng.random_range(0..6);
    let lines: Vec<String> = (0..n)
        .map(|_| match rng.random_range(0..LINES.len() + 2) {
            i if i < LINES.len() => LINES[i].to_string(),
            i if i == LINES.len() => {
                let quote = ["", "\"", "'"][rng.random_range(0..3)];
                let key = run_of(rng, LOWER, false, 5);
                format!("{key} = {quote}{}{quote}", run_of(rng, LOWER_AND_DIGITS, true, 5))
            }
            _ => any_text(rng, 12),
        })
        .collect();
    lines.join("\n")
}

#[test]
fn counts_parse_or_explain() {
    each_input(1, spec_text, |text| match parse_count(text) {
        Ok(n) => {
            assert!(n >= 1, "{text:?}");
            assert_eq!(parse_count(&format_count(n)), Ok(n), "{text:?}");
        }
        Err(e) => assert!(e.contains("e.g. 5000, 250K, 10M"), "{text:?}: {e}"),
    });
}

#[test]
fn seeds_parse_or_explain() {
    each_input(2, spec_text, |text| {
        if let Err(e) = parse_seed(text) {
            assert!(e.contains("0 to 18446744073709551615"), "{text:?}: {e}");
        }
    });
}

#[test]
fn sweep_ranges_expand_to_a_bounded_list_or_explain() {
    each_input(3, sweep_text, |text| match expand(text) {
        Ok(points) => {
            assert!(!points.is_empty() && points.len() <= MAX_POINTS, "{text:?}");
            for p in points {
                assert!(p.value.is_finite(), "{text:?}");
                assert!(!p.spec.contains('{'), "{text:?}: {}", p.spec);
            }
        }
        Err(e) => assert!(!e.is_empty(), "{text:?}"),
    });
}

#[test]
fn policy_specs_of_every_game_parse_or_explain() {
    struct Check<'a>(&'a str);
    impl Visitor for Check<'_> {
        fn visit<G: Game>(&mut self) {
            match G::parse_policy(self.0) {
                // What is accepted prints as a spec that means the same.
                Ok(p) => {
                    let again = G::parse_policy(&p.to_string())
                        .unwrap_or_else(|e| panic!("{:?} printed as {p}, which fails: {e}", self.0));
                    assert_eq!(again.to_string(), p.to_string(), "{:?}", self.0);
                }
                Err(e) => assert!(!e.is_empty(), "{:?}", self.0),
            }
        }
    }
    each_input(4, spec_text, |text| sim::games::each(&mut Check(text)));
}

#[test]
fn strategy_files_parse_or_name_the_file() {
    each_input(5, strategy_text, |text| {
        match parse_strategy(text, Origin::File("s.toml".into()), "flip7") {
            Ok(s) => assert_eq!(s.game, "flip7", "{text:?}"),
            Err(e) => assert!(e.starts_with("s.toml"), "{text:?}: {e}"),
        }
    });
}

#[test]
fn the_inputs_reach_every_kind_of_answer() {
    // The generators are worth their cases only if the parsers accept
    // some inputs and refuse others.
    let count = |make: fn(&mut SimRng) -> String, ok: &dyn Fn(&str) -> bool| {
        let mut rng = SimRng::seed_from_u64(9);
        (0..CASES).filter(|_| ok(&make(&mut rng))).count()
    };
    // A policy spec counts as accepted when some game takes it.
    struct Any<'a>(&'a str, bool);
    impl Visitor for Any<'_> {
        fn visit<G: Game>(&mut self) {
            self.1 |= G::parse_policy(self.0).is_ok();
        }
    }
    let policy = |t: &str| {
        let mut any = Any(t, false);
        sim::games::each(&mut any);
        any.1
    };
    for (name, accepted) in [
        ("policy specs", count(spec_text, &policy)),
        ("counts", count(spec_text, &|t| parse_count(t).is_ok())),
        ("seeds", count(spec_text, &|t| parse_seed(t).is_ok())),
        ("sweep ranges", count(sweep_text, &|t| expand(t).is_ok())),
        (
            "strategy files",
            count(strategy_text, &|t| {
                parse_strategy(t, Origin::File("s.toml".into()), "flip7").is_ok()
            }),
        ),
    ] {
        assert!(
            accepted > 0 && accepted < CASES,
            "{name}: {accepted} of {CASES} accepted"
        );
    }
}
