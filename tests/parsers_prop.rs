//! Property tests of every parser of user input (counts, seeds, policy
//! specs of every game, sweep ranges, strategy files): any input gives a
//! value or a clear error, never a panic or a hang, and what is accepted
//! reads back to itself.

use proptest::prelude::*;

use sim::engine::args::{format_count, parse_count, parse_seed};
use sim::engine::game::{Game, Visitor};
use sim::engine::strategies::{Origin, parse_strategy};
use sim::tournament::expand::{MAX_POINTS, expand};

/// Text built from the pieces these parsers look for, so that the search
/// reaches deep into them rather than failing at the first character.
fn spec_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("stay-at-".to_string()),
        Just("call-at:".to_string()),
        Just("+".to_string()),
        Just(",".to_string()),
        Just(":".to_string()),
        Just("{".to_string()),
        Just("}".to_string()),
        Just("..".to_string()),
        Just("-".to_string()),
        Just(".".to_string()),
        Just("e".to_string()),
        Just("freeze".to_string()),
        Just("flip-".to_string()),
        Just("place-".to_string()),
        Just("default".to_string()),
        "[0-9]{1,25}",
        "[a-z]{1,6}",
        "\\PC{0,3}",
    ];
    prop::collection::vec(piece, 0..8).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn counts_parse_or_explain(text in spec_text()) {
        match parse_count(&text) {
            Ok(n) => {
                prop_assert!(n >= 1);
                prop_assert_eq!(parse_count(&format_count(n)), Ok(n));
            }
            Err(e) => prop_assert!(e.contains("e.g. 5000, 250K, 10M"), "{}", e),
        }
    }

    #[test]
    fn seeds_parse_or_explain(text in spec_text()) {
        if let Err(e) = parse_seed(&text) {
            prop_assert!(e.contains("0 to 18446744073709551615"), "{}", e);
        }
    }

    #[test]
    fn sweep_ranges_expand_to_a_bounded_list_or_explain(text in spec_text()) {
        match expand(&text) {
            Ok(points) => {
                prop_assert!(!points.is_empty() && points.len() <= MAX_POINTS);
                for p in points {
                    prop_assert!(p.value.is_finite());
                    prop_assert!(!p.spec.contains('{'), "{}", p.spec);
                }
            }
            Err(e) => prop_assert!(!e.is_empty()),
        }
    }

    #[test]
    fn policy_specs_of_every_game_parse_or_explain(text in spec_text()) {
        struct Check<'a>(&'a str);
        impl Visitor for Check<'_> {
            fn visit<G: Game>(&mut self) {
                match G::parse_policy(self.0) {
                    // What is accepted prints as a spec that means the same.
                    Ok(p) => {
                        let again = G::parse_policy(&p.to_string()).expect("a printed policy parses");
                        assert_eq!(again.to_string(), p.to_string());
                    }
                    Err(e) => assert!(!e.is_empty()),
                }
            }
        }
        sim::games::each(&mut Check(&text));
    }

    #[test]
    fn strategy_files_parse_or_name_the_file(
        lines in prop::collection::vec(
            prop_oneof![
                Just("game = \"flip7\"".to_string()),
                Just("policy = \"stay-at-20\"".to_string()),
                Just("description = 'x'".to_string()),
                Just("[table]".to_string()),
                Just("\u{feff}".to_string()),
                "[a-z]{1,5} = [\"']?[a-z0-9]{0,5}[\"']?",
                "\\PC{0,12}",
            ],
            0..6,
        )
    ) {
        let text = lines.join("\n");
        match parse_strategy(&text, Origin::File("s.toml".into()), "flip7") {
            Ok(s) => prop_assert_eq!(s.game, "flip7"),
            Err(e) => prop_assert!(e.starts_with("s.toml"), "{}", e),
        }
    }
}
