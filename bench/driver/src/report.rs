//! RESULTS.md from the JSON files `bench-driver run` wrote.

use anyhow::{Context as _, Result};
use clap::Parser;
use serde_json::Value;

#[derive(Parser, Clone)]
pub struct ReportArgs {
    /// Markdown written above the tables (date, machine, sizes, notes).
    #[arg(long)]
    header: String,
    /// Markdown written below the tables.
    #[arg(long)]
    footer: Option<String>,
    #[arg(long)]
    out: String,
    /// JSON files from `run`, one per column, in column order.
    files: Vec<String>,
}

fn num(v: &Value, path: &[&str]) -> Option<f64> {
    let mut v = v;
    for p in path {
        v = v.get(*p)?;
    }
    v.as_f64()
}

fn fmt(x: Option<f64>, digits: usize) -> String {
    match x {
        None => "—".into(),
        Some(x) if x.is_infinite() => "lost moves".into(),
        Some(x) if x.is_nan() => "—".into(),
        Some(x) => format!("{x:.digits$}"),
    }
}

pub fn write(a: &ReportArgs) -> Result<()> {
    let mut runs = Vec::new();
    for f in &a.files {
        let text = std::fs::read_to_string(f).with_context(|| format!("read {f}"))?;
        runs.push(serde_json::from_str::<Value>(&text).with_context(|| format!("parse {f}"))?);
    }
    let mut md = std::fs::read_to_string(&a.header).with_context(|| format!("read {}", a.header))?;
    md.push('\n');

    let label = |r: &Value| {
        let l = r.get("label").and_then(Value::as_str).unwrap_or("?");
        let k = r.get("keepalive").and_then(Value::as_str).unwrap_or("?");
        format!("{l}<br>keep-alive {k}")
    };
    md.push_str("| metric |");
    for r in &runs {
        md.push_str(&format!(" {} |", label(r)));
    }
    md.push_str("\n|---|");
    for _ in &runs {
        md.push_str("---:|");
    }
    md.push('\n');

    type Row<'a> = (&'a str, Box<dyn Fn(&Value) -> String>);
    let rows: Vec<Row> = vec![
        ("tables × clients (steady run)", Box::new(|r| match (num(r, &["steady", "tables"]), num(r, &["steady", "clients"])) {
            (Some(t), Some(c)) => format!("{t} × {}", c / t),
            _ => "—".into(),
        })),
        ("moves measured / expected", Box::new(|r| format!("{} / {}", fmt(num(r, &["steady", "moves"]), 0), fmt(num(r, &["steady", "expected_moves"]), 0)))),
        ("move → last spectator p50, ms", Box::new(|r| fmt(num(r, &["steady", "p50_ms"]), 2))),
        ("move → last spectator p99, ms", Box::new(|r| fmt(num(r, &["steady", "p99_ms"]), 2))),
        ("bytes down per move per client", Box::new(|r| fmt(num(r, &["steady", "down_bytes_per_move_per_client"]), 0))),
        ("bytes up per move (all clients of the table)", Box::new(|r| fmt(num(r, &["steady", "up_bytes_per_move"]), 0))),
        ("server CPU per move, ms", Box::new(|r| fmt(num(r, &["steady", "cpu_ms_per_move"]), 3))),
        ("server CPU use in steady run", Box::new(|r| fmt(num(r, &["steady", "cpu_util"]).map(|x| x * 100.0), 1) + " %")),
        ("driver CPU use in steady run", Box::new(|r| fmt(num(r, &["steady", "driver_cpu_util"]).map(|x| x * 100.0), 1) + " %")),
        ("server RSS idle → loaded, MiB", Box::new(|r| format!("{} → {}", fmt(num(r, &["steady", "rss_idle_mb"]), 0), fmt(num(r, &["steady", "rss_loaded_mb"]), 0)))),
        ("server RSS per connection, KiB", Box::new(|r| fmt(num(r, &["steady", "rss_kb_per_connection"]), 1))),
        ("join burst: ok / n", Box::new(|r| format!("{} / {}", fmt(num(r, &["join_burst", "ok"]), 0), fmt(num(r, &["join_burst", "clients"]), 0)))),
        ("join burst: all in, ms", Box::new(|r| fmt(num(r, &["join_burst", "wall_ms"]), 0))),
        ("join burst: p50 / p99 per join, ms", Box::new(|r| format!("{} / {}", fmt(num(r, &["join_burst", "p50_ms"]), 0), fmt(num(r, &["join_burst", "p99_ms"]), 0)))),
        ("reconnect burst: ok / n", Box::new(|r| format!("{} / {}", fmt(num(r, &["reconnect_burst", "ok"]), 0), fmt(num(r, &["reconnect_burst", "clients"]), 0)))),
        ("reconnect burst: all back, ms", Box::new(|r| fmt(num(r, &["reconnect_burst", "wall_ms"]), 0))),
        ("reconnect burst: p50 / p99, ms", Box::new(|r| format!("{} / {}", fmt(num(r, &["reconnect_burst", "p50_ms"]), 0), fmt(num(r, &["reconnect_burst", "p99_ms"]), 0)))),
        ("tables per core (p99 ≤ 50 ms)", Box::new(|r| fmt(num(r, &["tables_per_core"]), 0))),
        ("search", Box::new(|r| r.get("search_note").and_then(Value::as_str).filter(|s| !s.is_empty()).unwrap_or("—").to_string())),
        ("error", Box::new(|r| r.get("error").and_then(Value::as_str).map(|e| e.replace('|', "/")).unwrap_or_default())),
    ];
    for (name, f) in &rows {
        md.push_str(&format!("| {name} |"));
        for r in &runs {
            md.push_str(&format!(" {} |", f(r)));
        }
        md.push('\n');
    }

    // Every step of every search, so the bound can be checked.
    md.push_str("\n### Tables-per-core search steps\n\nServer pinned to one core; each step a fresh server process.\n\n| server | tables | clients | moves/expected | p50 ms | p99 ms | server CPU | driver CPU | result |\n|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
    for r in &runs {
        for s in r.get("search").and_then(Value::as_array).into_iter().flatten() {
            let p99 = num(s, &["p99_ms"]);
            let ok = p99.is_some_and(|p| p <= 50.0)
                && num(s, &["setup_errors"]) == Some(0.0)
                && num(s, &["client_errors"]) == Some(0.0)
                && num(s, &["moves"]).unwrap_or(0.0) >= 0.95 * num(s, &["expected_moves"]).unwrap_or(f64::MAX);
            md.push_str(&format!(
                "| {} | {} | {} | {} / {} | {} | {} | {} % | {} % | {} |\n",
                label(r).replace("<br>", ", "),
                fmt(num(s, &["tables"]), 0),
                fmt(num(s, &["clients"]), 0),
                fmt(num(s, &["moves"]), 0),
                fmt(num(s, &["expected_moves"]), 0),
                fmt(num(s, &["p50_ms"]), 1),
                fmt(p99, 1),
                fmt(num(s, &["cpu_util"]).map(|x| x * 100.0), 0),
                fmt(num(s, &["driver_cpu_util"]).map(|x| x * 100.0), 0),
                if ok { "pass" } else { "fail" },
            ));
        }
    }
    if let Some(f) = &a.footer {
        md.push('\n');
        md.push_str(&std::fs::read_to_string(f).with_context(|| format!("read {f}"))?);
    }
    std::fs::write(&a.out, md).with_context(|| format!("write {}", a.out))?;
    Ok(())
}
