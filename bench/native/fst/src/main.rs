//! `fstbench stream|get|prefix|fuzzy FILE [ARG]`: one timed job on a map, as the Binlens
//! bench case does it, so the two can be compared process for process.
//! `fstbench prefix-batch|fuzzy-batch FILE QUERIES [DISTANCE]`: every query of a file (one a
//! line) in turn, the loop timed inside the process and printed on stderr as `timed-ms MS`.
use fst::{Automaton, IntoStreamer, Map, Streamer};
use std::env;
use std::fs;
use std::time::Instant;

/// Keys within `max` edits of `query`, counted in Unicode characters: the same dynamic
/// row-by-row automaton as Binlens uses (fst 0.3's Levenshtein lives in another crate that
/// Debian does not package).
struct Levenshtein {
    query: Vec<char>,
    max: u8,
}

#[derive(Clone)]
struct LevState {
    row: Vec<u8>,
    cp: u32,
    need: u8,
}

impl Levenshtein {
    fn step(&self, s: &LevState, ch: u32) -> LevState {
        let n = self.query.len();
        let cap = self.max + 1;
        let mut row = vec![0u8; n + 1];
        row[0] = (s.row[0] + 1).min(cap);
        for j in 1..=n {
            let sub = s.row[j - 1] + if self.query[j - 1] as u32 == ch { 0 } else { 1 };
            row[j] = (s.row[j] + 1).min(row[j - 1] + 1).min(sub).min(cap);
        }
        LevState { row, cp: 0, need: 0 }
    }
}

impl Automaton for Levenshtein {
    type State = LevState;
    fn start(&self) -> LevState {
        let n = self.query.len();
        LevState { row: (0..=n).map(|j| (j as u8).min(self.max + 1)).collect(), cp: 0, need: 0 }
    }
    fn is_match(&self, s: &LevState) -> bool {
        s.need == 0 && s.row[self.query.len()] <= self.max
    }
    fn can_match(&self, s: &LevState) -> bool {
        s.row.iter().any(|&v| v <= self.max)
    }
    fn accept(&self, s: &LevState, b: u8) -> LevState {
        if s.need > 0 && b & 0xc0 == 0x80 {
            let cp = (s.cp << 6) | (b & 0x3f) as u32;
            if s.need == 1 {
                return self.step(s, cp);
            }
            return LevState { row: s.row.clone(), cp, need: s.need - 1 };
        }
        match b {
            0x00..=0x7f => self.step(s, b as u32),
            0xc2..=0xdf => LevState { row: s.row.clone(), cp: (b & 0x1f) as u32, need: 1 },
            0xe0..=0xef => LevState { row: s.row.clone(), cp: (b & 0x0f) as u32, need: 2 },
            0xf0..=0xf4 => LevState { row: s.row.clone(), cp: (b & 0x07) as u32, need: 3 },
            _ => self.step(s, 0x110000 + b as u32),
        }
    }
}

fn main() {
    let args: Vec<String> = env::args().collect();
    let map = Map::from_bytes(fs::read(&args[2]).expect("read fst")).expect("open fst");
    let (mut n, mut sum) = (0u64, 0u64);
    match args[1].as_str() {
        "stream" => {
            let mut s = map.stream();
            while let Some((k, v)) = s.next() {
                n += 1;
                sum = sum.wrapping_add(v).wrapping_add(k.len() as u64);
            }
        }
        "get" => {
            // Keys file: u32 LE length + bytes, repeated.
            let keys = fs::read(&args[3]).expect("read keys");
            let mut at = 0;
            while at < keys.len() {
                let len = u32::from_le_bytes([keys[at], keys[at + 1], keys[at + 2], keys[at + 3]]) as usize;
                if let Some(v) = map.get(&keys[at + 4..at + 4 + len]) {
                    n += 1;
                    sum = sum.wrapping_add(v);
                }
                at += 4 + len;
            }
        }
        "prefix" => {
            let mut s = map.search(fst::automaton::Str::new(&args[3]).starts_with()).into_stream();
            while let Some((_, v)) = s.next() {
                n += 1;
                sum = sum.wrapping_add(v);
            }
        }
        "fuzzy" => {
            let aut = Levenshtein { query: args[3].chars().collect(), max: args[4].parse().expect("distance") };
            let mut s = map.search(aut).into_stream();
            while let Some((_, v)) = s.next() {
                n += 1;
                sum = sum.wrapping_add(v);
            }
        }
        "prefix-batch" | "fuzzy-batch" => {
            let text = fs::read_to_string(&args[3]).expect("read queries");
            let queries: Vec<&str> = text.lines().collect();
            let distance: u8 = args.get(4).map_or(1, |d| d.parse().expect("distance"));
            let started = Instant::now();
            for q in &queries {
                if args[1] == "prefix-batch" {
                    let mut s = map.search(fst::automaton::Str::new(q).starts_with()).into_stream();
                    while let Some((_, v)) = s.next() {
                        n += 1;
                        sum = sum.wrapping_add(v);
                    }
                } else {
                    let mut s = map.search(Levenshtein { query: q.chars().collect(), max: distance }).into_stream();
                    while let Some((_, v)) = s.next() {
                        n += 1;
                        sum = sum.wrapping_add(v);
                    }
                }
            }
            eprintln!("timed-ms {:.3}", started.elapsed().as_secs_f64() * 1000.0);
        }
        other => panic!("unknown job {}", other),
    }
    println!("{} {}", n, sum);
}
