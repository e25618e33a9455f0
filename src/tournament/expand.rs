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
}
