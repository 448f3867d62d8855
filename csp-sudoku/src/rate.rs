//! Difficulty rating: the human techniques a puzzle needs, whether it needs a guess, the
//! search effort of the default strategy, and a score with a level.
//!
//! The formula is documented on [`score`], the levels on [`Level`].

use std::fmt;
use std::str::FromStr;

use csp_core::{LimitKind, Limits, SearchConfig};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use thiserror::Error;

use crate::defaults::default_config;
use crate::grid::Grid;
use crate::logic::{Technique, rate_logic};
use crate::model::SudokuModel;
use crate::solve::{Status, solve};

/// A difficulty level, from the [`score`]:
///
/// | level | score | typically |
/// | --- | --- | --- |
/// | easy | below 20 | naked and hidden singles only |
/// | medium | 20 to below 50 | a few pairs, pointing or box-line reductions |
/// | hard | 50 to below 80 | triples or many subset steps; or a guess the search never regrets (fewer than 3 backtracks) |
/// | expert | 80 and above | guessing, with 3 or more backtracks of the default strategy |
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Level {
    /// Singles only: score below 20.
    Easy,
    /// Some subset or intersection steps: score 20 to below 50.
    Medium,
    /// Many such steps, or an easy guess: score 50 to below 80.
    Hard,
    /// Guessing with real search: score 80 and above.
    Expert,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 4] = [Level::Easy, Level::Medium, Level::Hard, Level::Expert];

    /// The lowest score of each level, in [`Level::ALL`] order.
    pub const THRESHOLDS: [f64; 4] = [0.0, 20.0, 50.0, 80.0];

    /// `easy`, `medium`, `hard` or `expert`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
        }
    }

    /// The level of a score.
    pub fn of_score(score: f64) -> Level {
        Level::ALL
            .into_iter()
            .zip(Level::THRESHOLDS)
            .rev()
            .find(|&(_, low)| score >= low)
            .map_or(Level::Easy, |(level, _)| level)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = csp_core::ParseNameError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Level::ALL
            .into_iter()
            .find(|l| l.name() == s)
            .ok_or_else(|| csp_core::ParseNameError {
                kind: "difficulty level",
                found: s.to_string(),
                expected: "easy, medium, hard, expert",
            })
    }
}

/// Why a puzzle cannot be rated.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RateError {
    /// Two givens of a unit hold the same value.
    #[error("the givens repeat a value in a unit")]
    Conflict,
    /// The puzzle has no solution.
    #[error("the puzzle has no solution")]
    NoSolution,
    /// A limit stopped the search before the first solution.
    #[error("not rated: {0} before the first solution")]
    Limit(LimitKind),
}

/// How hard a puzzle is; see [`score`] for the formula and [`Level`] for the scale.
/// Serializes `techniques` as an object from technique name to uses, easiest first.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// Higher is harder.
    pub score: f64,
    /// The level of the score.
    pub level: Level,
    /// Each technique used by the logic solver with its number of uses, easiest first.
    #[serde(serialize_with = "technique_map")]
    pub techniques: Vec<(Technique, usize)>,
    /// The hardest technique used.
    pub hardest: Option<Technique>,
    /// Deductions made by the logic solver.
    pub steps: usize,
    /// Whether the techniques get stuck, so that a person must guess.
    pub guessing: bool,
    /// Nodes of the default strategy's search for the first solution.
    pub nodes: u64,
    /// Backtracks of that search.
    pub backtracks: u64,
}

fn technique_map<S: Serializer>(list: &[(Technique, usize)], s: S) -> Result<S::Ok, S::Error> {
    let mut map = s.serialize_map(Some(list.len()))?;
    for (t, n) in list {
        map.serialize_entry(t.name(), n)?;
    }
    map.end()
}

/// The score of a rating's parts: `techniques` with their uses, whether the logic solver
/// got stuck, and the backtracks of the default strategy.
///
/// Let `H` be the [difficulty weight](Technique::difficulty) of the hardest technique
/// [`rate_logic`] needed (10 for naked singles ... 44 for hidden triples; 0 if the grid
/// was already full), `A` the number of deductions made by techniques other than singles,
/// and `B` the backtracks of the [`default_config`] searching for the first solution.
///
/// * Solved by logic alone: `score = H + min(A, 15)`, from 0 to 59.
/// * Needs guessing (the techniques get stuck): `score = 60 + 10 * log2(1 + B)`, rounded
///   to one decimal: 60 when the search never backtracks, 70 for one backtrack, 80 for
///   three, 100 for fifteen.
///
/// A higher score is a harder puzzle; every guessing puzzle scores above every puzzle
/// that logic solves.
pub fn score(techniques: &[(Technique, usize)], guessing: bool, backtracks: u64) -> f64 {
    if guessing {
        let s = 60.0 + 10.0 * (1.0 + backtracks as f64).log2();
        return (s * 10.0).round() / 10.0;
    }
    let hardest = techniques.iter().map(|&(t, _)| t.difficulty()).max().unwrap_or(0);
    let advanced: usize = techniques
        .iter()
        .filter(|(t, _)| !t.places())
        .map(|&(_, n)| n)
        .sum();
    f64::from(hardest) + advanced.min(15) as f64
}

/// Rates `puzzle`, searching with `rules` (which should be [`SudokuModel::default_for`]
/// of the puzzle's order) and the [`default_config`] of its order.
///
/// ```
/// use csp_sudoku::{Level, parse_puzzle, rate};
/// // Seed 001's second puzzle needs nothing but singles.
/// let easy = rate(&parse_puzzle(
///     "003020600900305001001806400008102900700000008006708200002609500800203009005010300",
/// ).unwrap()).unwrap();
/// assert_eq!(easy.level, Level::Easy);
/// assert!(!easy.guessing);
/// // From Norvig's top95: a person must guess, and the search backtracks a lot.
/// let hard = rate(&parse_puzzle(
///     "6.2.5.........3.4..........43...8....1....2........7..5..27...........81...6.....",
/// ).unwrap()).unwrap();
/// assert!(hard.guessing && hard.score > easy.score);
/// assert_eq!(hard.level, Level::Expert);
/// ```
pub fn rate_with(rules: &SudokuModel, puzzle: &Grid) -> Result<Rating, RateError> {
    rate_within(rules, puzzle, &Limits::default())
}

/// [`rate_with`] within `limits` (time, nodes or a cancel flag) for the search;
/// [`RateError::Limit`] when one stops it first.
pub fn rate_within(rules: &SudokuModel, puzzle: &Grid, limits: &Limits) -> Result<Rating, RateError> {
    if !puzzle.is_consistent() {
        return Err(RateError::Conflict);
    }
    let config = SearchConfig {
        limits: limits.clone(),
        ..default_config(puzzle.order())
    };
    let report = solve(rules, puzzle, &config);
    match (report.status, report.limit) {
        (Status::Unsatisfiable, _) => return Err(RateError::NoSolution),
        (Status::Limit, Some(kind)) => return Err(RateError::Limit(kind)),
        _ => {}
    }
    let logic = rate_logic(puzzle);
    let guessing = logic.stuck;
    let score = score(&logic.techniques, guessing, report.stats.backtracks);
    Ok(Rating {
        score,
        level: Level::of_score(score),
        steps: logic.steps(),
        techniques: logic.techniques,
        hardest: logic.hardest,
        guessing,
        nodes: report.stats.nodes,
        backtracks: report.stats.backtracks,
    })
}

/// Rates `puzzle` with freshly built rules; see [`rate_with`].
pub fn rate(puzzle: &Grid) -> Result<Rating, RateError> {
    rate_with(&SudokuModel::default_for(puzzle.order()), puzzle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_follow_the_thresholds() {
        assert_eq!(Level::of_score(0.0), Level::Easy);
        assert_eq!(Level::of_score(19.9), Level::Easy);
        assert_eq!(Level::of_score(20.0), Level::Medium);
        assert_eq!(Level::of_score(59.0), Level::Hard);
        assert_eq!(Level::of_score(80.0), Level::Expert);
        assert_eq!("hard".parse::<Level>(), Ok(Level::Hard));
        assert!("evil".parse::<Level>().is_err());
    }

    #[test]
    fn score_formula() {
        use Technique::*;
        assert_eq!(score(&[(NakedSingle, 40), (HiddenSingle, 9)], false, 0), 12.0);
        assert_eq!(score(&[(NakedSingle, 40), (Pointing, 3)], false, 0), 39.0);
        assert_eq!(score(&[(NakedPair, 40), (HiddenTriple, 1)], false, 0), 59.0);
        assert_eq!(score(&[], true, 0), 60.0);
        assert_eq!(score(&[], true, 3), 80.0);
    }
}
