//! Expanding a swept policy spec: `stay-at-{10..40}`, `bust-prob:{0.1,0.2}`.
//!
//! A spec holds exactly one `{...}` group:
//!
//! - `{A..B}`: whole numbers from A to B (either order), step 1;
//! - `{A..B..S}`: from A towards B in steps of S (S > 0; decimals allowed,
//!   the values printed with as many decimals as A, B and S have, so
//!   `{0.1..0.5..0.1}` gives 0.1, 0.2, 0.3, 0.4, 0.5);
//! - `{X,Y,Z}`: a list of numbers.

/// One value of a sweep: the number and the spec it makes.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// The parameter value, as written into the spec.
    pub text: String,
    /// The parameter value as a number.
    pub value: f64,
    /// The spec with the value in place of the group.
    pub spec: String,
}

/// At most this many values in one sweep.
pub const MAX_POINTS: usize = 1000;

const ACCEPTED: &str = "expected one {A..B}, {A..B..STEP} or {X,Y,Z} group of numbers, e.g. stay-at-{10..40} or bust-prob:{0.1,0.2,0.3}";

fn decimals(text: &str) -> usize {
    text.split_once('.').map_or(0, |(_, d)| d.len())
}

fn number(text: &str) -> Result<f64, String> {
    let t = text.trim();
    t.parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
        .ok_or_else(|| format!("'{t}' is not a number; {ACCEPTED}"))
}

/// The values of one group's body (the text between `{` and `}`): a
/// range or a list of numbers, as the module says.
fn group_texts(body: &str) -> Result<Vec<String>, String> {
    let texts: Vec<String> = if body.contains("..") {
        let parts: Vec<&str> = body.split("..").map(str::trim).collect();
        let (a, b, step) = match parts.as_slice() {
            [a, b] => (*a, *b, "1"),
            [a, b, s] => (*a, *b, *s),
            _ => return Err(format!("'{{{body}}}': {ACCEPTED}")),
        };
        let (va, vb, vs) = (number(a)?, number(b)?, number(step)?);
        if vs <= 0.0 {
            return Err(format!("'{{{body}}}': the step must be above 0; {ACCEPTED}"));
        }
        let places = decimals(a).max(decimals(b)).max(decimals(step));
        // Steps after the first value, counted in floats first: a huge
        // range or a tiny step must be refused, not wrap around to 0.
        let steps = ((vb - va).abs() / vs + 1e-9).floor();
        if !steps.is_finite() || steps >= MAX_POINTS as f64 {
            return Err(format!(
                "'{{{body}}}' makes more than {MAX_POINTS} values; use a larger step or a shorter range"
            ));
        }
        let count = steps as usize + 1;
        let dir = if vb >= va { 1.0 } else { -1.0 };
        (0..count)
            .map(|k| format!("{:.*}", places, va + dir * vs * k as f64))
            .collect()
    } else {
        let items: Vec<String> = body.split(',').map(|t| t.trim().to_string()).collect();
        for t in &items {
            number(t)?;
        }
        if items.len() > MAX_POINTS {
            return Err(format!("{} values (at most {MAX_POINTS})", items.len()));
        }
        items
    };
    Ok(texts)
}

/// Expands `spec` into its sweep points.
pub fn expand(spec: &str) -> Result<Vec<Point>, String> {
    let open = spec
        .find('{')
        .ok_or_else(|| format!("no {{...}} group; {ACCEPTED}"))?;
    let close = spec[open..]
        .find('}')
        .map(|i| open + i)
        .ok_or_else(|| format!("unclosed {{; {ACCEPTED}"))?;
    let (head, body, tail) = (&spec[..open], &spec[open + 1..close], &spec[close + 1..]);
    if tail.contains('{') || tail.contains('}') || head.contains('}') {
        return Err(format!("only one {{...}} group per sweep; {ACCEPTED}"));
    }
    let texts = group_texts(body)?;
    texts
        .into_iter()
        .map(|text| {
            Ok(Point {
                value: number(&text)?,
                spec: format!("{head}{text}{tail}"),
                text,
            })
        })
        .collect()
}

/// One candidate of a tuning template (`sim tune`): the spec with every
/// group replaced, and the value each group took.
#[derive(Clone, Debug, PartialEq)]
pub struct Combo {
    /// The spec with every group's value in place.
    pub spec: String,
    /// The value of each group, in the order the groups are written.
    pub values: Vec<String>,
}

/// What a group of a tuning template may be.
pub const TEMPLATE_ACCEPTED: &str = "each {...} group is a range {A..B} or {A..B..STEP}, a list of numbers {X,Y,Z}, \
     or a list of choices {a|b|c}, e.g. 'stay-at-{10..40}' or 'saver+burn-at:{4..16..4}+fix:{low|high}'";

/// A tuning template taken apart: the fixed texts between its groups and
/// each group's values. Its candidates are numbered from 0 in the order
/// [`expand_all`] lists them (the last group varying fastest), so that a
/// space too large to list can still be counted and sampled.
#[derive(Clone, Debug, PartialEq)]
pub struct Template {
    /// The texts before, between and after the groups (one more than the
    /// groups).
    texts: Vec<String>,
    /// Each group's values.
    groups: Vec<Vec<String>>,
}

impl Template {
    /// Reads `template`: any number of `{...}` groups (ranges and lists of
    /// numbers as in [`expand`], and choices `{a|b|c}` of any text).
    /// Refuses a template without a group, an empty group or choice, and a
    /// brace out of place.
    pub fn parse(template: &str) -> Result<Template, String> {
        let mut texts: Vec<String> = Vec::new();
        let mut groups: Vec<Vec<String>> = Vec::new();
        let mut rest = template;
        while let Some(open) = rest.find(['{', '}']) {
            if rest[open..].starts_with('}') {
                return Err(format!("a '}}' without its '{{'; {TEMPLATE_ACCEPTED}"));
            }
            let close = rest[open + 1..]
                .find(['{', '}'])
                .map(|i| open + 1 + i)
                .filter(|&i| rest[i..].starts_with('}'))
                .ok_or_else(|| {
                    format!("a '{{' without its '}}' (groups do not nest); {TEMPLATE_ACCEPTED}")
                })?;
            let body = rest[open + 1..close].trim();
            if body.is_empty() {
                return Err(format!("an empty group {{}}: no candidate; {TEMPLATE_ACCEPTED}"));
            }
            let values = if body.contains('|') {
                let items: Vec<String> = body.split('|').map(|t| t.trim().to_string()).collect();
                if items.iter().any(String::is_empty) {
                    return Err(format!("'{{{body}}}' has an empty choice; {TEMPLATE_ACCEPTED}"));
                }
                items
            } else {
                group_texts(body).map_err(|e| format!("{e}; or {{a|b|c}} for choices"))?
            };
            texts.push(rest[..open].to_string());
            groups.push(values);
            rest = &rest[close + 1..];
        }
        texts.push(rest.to_string());
        if groups.is_empty() {
            return Err(format!(
                "no {{...}} group, so only one candidate; {TEMPLATE_ACCEPTED}"
            ));
        }
        Ok(Template { texts, groups })
    }

    /// How many candidates the template makes, when a `u64` can number
    /// them (none for a larger space: [`Template::count_text`] says how
    /// large).
    pub fn count(&self) -> Option<u64> {
        self.groups
            .iter()
            .try_fold(1u64, |n, g| n.checked_mul(g.len() as u64))
    }

    /// How many candidates the template makes, every digit, exact for a
    /// space of any size.
    pub fn count_text(&self) -> String {
        const LIMB: u64 = 1_000_000_000;
        // Base 10^9 digits, the least significant first.
        let mut limbs: Vec<u64> = vec![1];
        for g in &self.groups {
            let mut carry = 0u64;
            for l in limbs.iter_mut() {
                let v = *l * g.len() as u64 + carry;
                *l = v % LIMB;
                carry = v / LIMB;
            }
            while carry > 0 {
                limbs.push(carry % LIMB);
                carry /= LIMB;
            }
        }
        let mut out = limbs.last().expect("one").to_string();
        for l in limbs.iter().rev().skip(1) {
            out.push_str(&format!("{l:09}"));
        }
        out
    }

    /// Each group's number of values, as `40 x 40`.
    pub fn sizes(&self) -> String {
        let sizes: Vec<String> = self.groups.iter().map(|g| g.len().to_string()).collect();
        sizes.join(" x ")
    }

    /// Candidate number `index` (below [`Template::count`]).
    pub fn combo(&self, index: u64) -> Combo {
        let mut pick = vec![0usize; self.groups.len()];
        let mut rest = index;
        for (i, g) in self.groups.iter().enumerate().rev() {
            let n = g.len() as u64;
            pick[i] = (rest % n) as usize;
            rest /= n;
        }
        let values: Vec<String> = pick
            .iter()
            .zip(&self.groups)
            .map(|(&k, g)| g[k].clone())
            .collect();
        let mut spec = self.texts[0].clone();
        for (v, t) in values.iter().zip(&self.texts[1..]) {
            spec.push_str(v);
            spec.push_str(t);
        }
        Combo { spec, values }
    }
}

/// Expands every `{...}` group of `template` ([`Template::parse`]) into
/// every combination, the last group varying fastest. Refuses what
/// [`Template::parse`] refuses, and more than `max` combinations (saying
/// how many it makes).
pub fn expand_all(template: &str, max: usize) -> Result<Vec<Combo>, String> {
    let t = Template::parse(template)?;
    match t.count() {
        Some(count) if count <= max as u64 => Ok((0..count).map(|i| t.combo(i)).collect()),
        _ => Err(format!(
            "makes {} candidates ({} values multiplied), more than the {max} a race takes; \
             use fewer values or larger steps",
            t.count_text(),
            t.sizes()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: `stay-at-{1e300..-1e300}` was "0 values" and hung the
    /// chart code; `{0.1..0.9..1e-20}` wrote a header-only CSV.
    #[test]
    fn huge_ranges_and_tiny_steps_are_refused_not_wrapped_to_zero_values() {
        for spec in [
            "stay-at-{1e300..-1e300}",
            "bust-prob:{0.1..0.9..1e-20}",
            "call-at:{0..1..1e-20}",
            "x{0..1e308..1e-308}",
        ] {
            let err = expand(spec).unwrap_err();
            assert!(err.contains("more than 1000 values"), "{spec}: {err}");
        }
        assert_eq!(expand("x{0..999}").unwrap().len(), 1000);
        assert!(expand("x{0..1000}").is_err());
    }

    #[test]
    fn ranges_lists_and_steps() {
        let p = expand("stay-at-{10..13}").unwrap();
        let specs: Vec<&str> = p.iter().map(|p| p.spec.as_str()).collect();
        assert_eq!(specs, ["stay-at-10", "stay-at-11", "stay-at-12", "stay-at-13"]);
        assert_eq!(p[3].value, 13.0);
        let p = expand("bust-prob:{0.1,0.25}").unwrap();
        assert_eq!(p[1].spec, "bust-prob:0.25");
        let p = expand("bust-prob:{0.1..0.5..0.1}").unwrap();
        let texts: Vec<&str> = p.iter().map(|p| p.text.as_str()).collect();
        assert_eq!(texts, ["0.1", "0.2", "0.3", "0.4", "0.5"]);
        assert_eq!(expand("x{3..1}").unwrap().len(), 3);
    }

    #[test]
    fn bad_groups_are_refused() {
        for bad in [
            "stay-at-25",
            "stay-at-{10..",
            "a{1..2}{3}",
            "a{x,y}",
            "a{1..5..0}",
            "a{1..2..3..4}",
        ] {
            assert!(expand(bad).unwrap_err().contains("expected one"), "{bad}");
        }
    }
    #[test]
    fn every_combination_of_several_groups_last_group_fastest() {
        let c = expand_all("a:{1..2}+b:{x|y|z}", 100).unwrap();
        let specs: Vec<&str> = c.iter().map(|c| c.spec.as_str()).collect();
        assert_eq!(
            specs,
            ["a:1+b:x", "a:1+b:y", "a:1+b:z", "a:2+b:x", "a:2+b:y", "a:2+b:z"]
        );
        assert_eq!(c[4].values, ["2", "y"]);
        assert_eq!(expand_all("stay-at-{10..40}", 100).unwrap().len(), 31);
        assert_eq!(expand_all("{p|q}", 100).unwrap()[1].spec, "q");
    }

    #[test]
    fn templates_without_groups_empty_groups_stray_braces_and_huge_spaces_are_refused() {
        for (bad, says) in [
            ("stay-at-25", "no {...} group"),
            ("a{}", "empty group"),
            ("a{x||y}", "empty choice"),
            ("a{1..2", "without its '}'"),
            ("a{1{2}}", "without its '}'"),
            ("a}1", "without its '{'"),
            ("a{x,y}", "not a number"),
            ("a{1..40}b{1..40}", "1600 candidates (40 x 40"),
            (
                "a{1..1000}{1..1000}{1..1000}{1..1000}{1..1000}{1..1000}{1..1000}",
                "1000000000000000000000 candidates (1000 x",
            ),
        ] {
            let err = expand_all(bad, 1000).unwrap_err();
            assert!(err.contains(says), "{bad}: {err}");
        }
    }

    /// A space past what a `u64` numbers is counted exactly, not
    /// saturated.
    #[test]
    fn spaces_are_counted_exactly_past_a_u64() {
        let t = Template::parse("a{1..40}b{x|y}").unwrap();
        assert_eq!((t.count(), t.count_text()), (Some(80), "80".to_string()));
        let big = "c{0..999}{0..999}.{0..999}/{0..999}{0..999}.{0..999}+{a|b|c|d}{a|b|c|d}{a|b|c}";
        let t = Template::parse(big).unwrap();
        assert_eq!(t.count(), None);
        assert_eq!(t.count_text(), "48000000000000000000");
        let t = Template::parse("{0..999}{0..999}{0..999}{0..999}{0..999}{0..999}{a|b|c}").unwrap();
        assert_eq!(t.count(), Some(3_000_000_000_000_000_000));
        assert_eq!(t.count_text(), "3000000000000000000");
    }
}
