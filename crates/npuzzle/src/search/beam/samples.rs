//! Samples of a beam's candidates, labelled by the moves a plain beam still took from them
//! (to fit a ranking to).

use super::super::ranking::{Ranking, RankingSample, SampleOptions};
use super::layer::*;
use super::run::*;
use super::setup::*;
use crate::board::Board;
use crate::error::SearchError;
use crate::heuristic::pdb::PdbHeuristic;
use crate::limits::{Limits, Watch};

/// Runs one beam from `start` across the whole board, ranked by `dbs` (a set for the
/// usual goal of the board's size), samples `per_layer` of each layer's candidates and
/// labels each by the length of a plain beam's answer from it, on `threads` threads.
/// An error if the set does not fit the board.
///
/// ```no_run
/// // (Needs the 7x7 set, built by `npuzzle pdb build --size 7x7`.)
/// use npuzzle::request::{Core, Sources};
/// use npuzzle::search::ranking::SampleOptions;
/// use npuzzle::search::ranking_samples;
/// use npuzzle::Board;
/// let goal = Board::solved("7x7".parse().unwrap());
/// let core = Core::new(Sources::default());
/// let set = core.cached_pdbs(&goal, "auto").expect("the 7x7 set is cached");
/// let start = npuzzle::scramble::uniform(&goal, &mut npuzzle::scramble::Rng::new(1));
/// let options = SampleOptions { width: 256, per_layer: 1, label_width: 64, ranking: None };
/// let samples = ranking_samples(&start, &set, &options, 2).unwrap();
/// assert!(samples.iter().all(|s| s.label.is_none_or(|l| l >= s.lc)));
/// ```
pub fn ranking_samples(
    start: &Board,
    dbs: &PdbHeuristic,
    options: &SampleOptions,
    threads: usize,
) -> Result<Vec<RankingSample>, SearchError> {
    let size = start.size();
    let goal = Board::solved(size);
    let bad = |field, reason: String| SearchError::BadRequest { field, reason };
    check_beam_width(options.width).map_err(|r| bad("width", r.to_string()))?;
    check_beam_width(options.label_width).map_err(|r| bad("label_width", r.to_string()))?;
    if !(1..=64).contains(&options.per_layer) {
        return Err(bad(
            "per_layer",
            format!(
                "expected 1 to 64 samples a layer, found {}",
                options.per_layer
            ),
        ));
    }
    let setup_with = |ranking: Option<Ranking>, sampler| {
        let Some(mut s) = BeamSetup::whole_board(&goal, dbs) else {
            return Err(bad(
                "databases",
                format!(
                    "expected a set for the usual goal of a {size} board, found one for {}",
                    dbs.goal().size()
                ),
            ));
        };
        s.ranking = ranking;
        s.sampler = sampler;
        Ok(s)
    };
    let sampler = Sampler {
        per_layer: options.per_layer,
        taken: std::sync::Mutex::new(Vec::new()),
    };
    let watch = Watch::new(&Limits::default());
    let nodes = NodeCount::default();
    {
        let setup = setup_with(options.ranking.clone(), Some(&sampler))?;
        beam_run(
            &setup,
            start,
            options.width,
            None,
            threads,
            &watch,
            &nodes,
            None,
        )?;
    }
    let taken = std::mem::take(&mut *sampler.taken.lock().unwrap_or_else(|e| e.into_inner()));
    let plain = setup_with(None, None)?;
    // Each label: the length of a plain beam's answer from the sample (none if it stalls).
    let labels = crate::limits::par_map(taken.len(), threads, 1, |i| {
        let board = Board::from_cells(size, taken[i].1.clone()).expect("a child of a board");
        let end = beam_run(
            &plain,
            &board,
            options.label_width,
            None,
            1,
            &watch,
            &nodes,
            None,
        )?;
        Ok(match end {
            BeamEnd::Found(m) => Some(m.len() as u32),
            _ => None,
        })
    })
    .into_iter()
    .collect::<Result<Vec<Option<u32>>, SearchError>>()?;
    let region = plain.region.as_ref().expect("databases in use");
    Ok(taken
        .into_iter()
        .zip(labels)
        .map(|((depth, cells), label)| RankingSample {
            depth,
            entries: region.all_entries(&cells),
            lc: plain.estimate(&cells),
            md: plain.manhattan(&cells),
            cells,
            label,
        })
        .collect())
}
