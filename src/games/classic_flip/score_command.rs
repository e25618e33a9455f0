//! `sim classic-flip score CARDS...`: the round score of a combined hand
//! (hand plus community) and how it is reached.

use clap::Args;

use super::cards::*;
use crate::engine::show::plural;

/// `sim classic-flip score`: the round score of a combined hand.
#[derive(Args, Debug, Clone)]
pub struct ScoreArgs {
    /// The cards of the combined hand (hand plus the three community
    /// cards), e.g. `GA G8 RA BA PA 2X Any`. A card named twice is the
    /// second deck's copy.
    #[arg(value_name = "CARDS", required = true, num_args = 1..)]
    pub cards: Vec<String>,
}

/// Parses the cards of a hand: a repeated card is the second deck's copy;
/// a third copy is refused.
pub fn parse_hand(words: &[String]) -> Result<CardSet, String> {
    let mut m: CardSet = 0;
    for w in words.iter().flat_map(|w| w.split([',', ' '])).filter(|w| !w.is_empty()) {
        let c = parse(w).ok_or_else(|| format!("CARDS: '{w}' is not a card; give {CARD_FORMS}"))?;
        if m & bit(c) == 0 {
            m |= bit(c);
        } else if m & bit(c + PER_DECK) == 0 {
            m |= bit(c + PER_DECK);
        } else {
            return Err(format!("CARDS: '{w}' appears more than twice; two decks hold two of each card"));
        }
    }
    Ok(m)
}

/// How a combined hand scores, in lines of text.
pub fn explain(m: CardSet) -> Vec<String> {
    let s = score(m);
    let mut out = vec![format!("hand: {} ({})", names(m), plural(count(m).into(), "card"))];
    let wild = count(m & WILD);
    let Some(r) = s.rank else {
        out.push(format!(
            "best kind: {} (naturals of one rank plus {wild} wild{}): below five of a kind",
            s.kind,
            if wild == 1 { "" } else { "s" }
        ));
        out.push("score: 0 points".into());
        return out;
    };
    let rn = RANK_NAMES[usize::from(r)];
    let naturals = count(m & NAT[usize::from(r)]);
    out.push(format!(
        "best kind: {} of a kind of {rn} ({naturals} natural{}, {wild} wild{})",
        s.kind,
        if naturals == 1 { "" } else { "s" },
        if wild == 1 { "" } else { "s" },
    ));
    out.push(format!(
        "base: {} points ({})",
        s.base,
        if s.base == 20 { "six of a kind or more" } else { "five of a kind" }
    ));
    let mut pts = s.base;
    let doublers = (m & MULT) | (m & GOLD_OF[usize::from(r)]);
    for c in cards_of(doublers) {
        pts *= 2;
        let why = match action(c) {
            Some(TWO_X) => "2X".to_string(),
            Some(ANY) => "Any (as a multiplier)".to_string(),
            _ if rank(c) == Some(EIGHT) => "Gold Wild 8".to_string(),
            _ => format!("gold card of the rank ({})", name(c)),
        };
        out.push(format!("x2 {why} = {pts}"));
    }
    out.push(format!("score: {} points", s.points));
    out
}

/// Runs `sim classic-flip score`: cards that are not a hand are a wrong
/// command line (exit 2).
pub fn run(args: &ScoreArgs) -> Result<(), crate::engine::failure::Failure> {
    use crate::engine::failure::Usage;
    let m = parse_hand(&args.cards).usage()?;
    let mut text = explain(m).join("\n");
    text.push('\n');
    Ok(crate::engine::show::print(text.as_bytes())?)
}
