//! Which `sim` wrote a result: the package version and the commit it was
//! built from, as `sim --version` shows them. Every CSV of a run, its
//! JSON summary, its JSON trace, its workbook and its state files carry
//! it, so that results joined from several runs keep it; and when a
//! result was made ([`workbook_time`], [`utc_text`]), as pages and
//! workbooks record it.

/// `0.1.0 (commit 565fe3d01234)`: the version of the package and the
/// commit built (`-modified` when tracked files differed from it,
/// `unknown` outside a git checkout).
pub const SIM_VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (commit ", env!("SIM_COMMIT"), ")");

/// The time a workbook records (its "Run" sheet and its creation date):
/// `$SOURCE_DATE_EPOCH` (seconds since 1970) when it is set, so that the
/// same run can give the same bytes again, else the current time. A value
/// that is not a whole number of seconds is refused.
pub fn workbook_time() -> Result<i64, String> {
    match std::env::var("SOURCE_DATE_EPOCH") {
        Ok(text) => match text.trim().parse::<i64>() {
            Ok(t) if (0..=253_402_300_799).contains(&t) => Ok(t),
            _ => Err(format!(
                "SOURCE_DATE_EPOCH '{text}' (the date written in the --xlsx workbook): expected \
                 a whole number of seconds since 1970-01-01, at most 253402300799 (year 9999)"
            )),
        },
        Err(_) => Ok(std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64)),
    }
}

/// `2025-06-01 12:34:56 UTC` for a time in seconds since 1970.
pub fn utc_text(time: i64) -> String {
    let (days, secs) = (time.div_euclid(86_400), time.rem_euclid(86_400));
    // Days since 1970-01-01 to a civil date (proleptic Gregorian).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}
