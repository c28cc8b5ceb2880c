//! Driving a tournament through `decide` and `evolve` with seeded random results: for tests,
//! benchmarks and demonstrations. Pure: the caller passes the seed and the (fake) clock.

use crate::command::Command;
use crate::config::TournamentConfig;
use crate::decide::decide;
use crate::event::TournamentEvent;
use crate::ids::{Color, GameRef, Millis, PlayerId};
use crate::lot::{Purpose, stream};
use crate::outcome::{GameResult, Outcome, ResultReason};
use crate::rank::Rank;
use crate::registration::Registration;
use crate::rejection::Rejection;
use crate::state::{Phase, Tournament, evolve};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// A tournament with its event log, advanced command by command.
#[derive(Clone, Debug)]
pub struct Simulation {
    /// Current state.
    pub state: Tournament,
    /// Every event so far.
    pub log: Vec<TournamentEvent>,
    /// The fake clock, advanced one second per command.
    pub now: Millis,
    rng: ChaCha8Rng,
}

impl Simulation {
    /// Creates a tournament; `seed` drives the simulated results (the config has its own seed).
    pub fn new(config: TournamentConfig, seed: u64) -> Result<Simulation, Rejection> {
        let mut s = Simulation {
            state: Tournament::default(),
            log: Vec::new(),
            now: Millis(1_700_000_000_000),
            rng: stream(seed, Purpose::Simulation, 0),
        };
        s.run(Command::Create { config })?;
        Ok(s)
    }

    /// Decides and applies one command.
    pub fn run(&mut self, cmd: Command) -> Result<Vec<TournamentEvent>, Rejection> {
        self.now = Millis(self.now.0 + 1000);
        let events = decide(&self.state, &cmd, self.now)?;
        for e in &events {
            evolve(&mut self.state, e);
        }
        self.log.extend(events.iter().cloned());
        Ok(events)
    }

    /// Registers players and starts.
    pub fn register_all(&mut self, players: &[Registration]) -> Result<(), Rejection> {
        for r in players {
            self.run(Command::Register { registration: r.clone() })?;
        }
        Ok(())
    }

    /// A random result: the stronger player wins more often (logistic in the rank difference);
    /// 1% draws where the format allows them.
    pub fn random_result(&mut self, black_rank: i32, white_rank: i32, draws: bool) -> GameResult {
        if draws && self.rng.random_bool(0.01) {
            return GameResult::draw();
        }
        let d = f64::from(black_rank - white_rank);
        let p_black = 1.0 / (1.0 + (-0.6 * d).exp());
        let winner = if self.rng.random_bool(p_black.clamp(0.02, 0.98)) { Color::Black } else { Color::White };
        GameResult { outcome: Outcome::Win(winner), reason: ResultReason::Played }
    }

    /// Records a random result for every open game of the last round.
    pub fn play_round(&mut self) -> Result<(), Rejection> {
        let Some(round) = self.state.rounds.last() else {
            return Ok(());
        };
        let number = round.number;
        let decisive = self.state.config.as_ref().is_some_and(|c| c.format.needs_decisive_games())
            || round.stage == crate::event::Stage::Knockout;
        let open: Vec<(u32, i32, i32)> = round
            .games
            .iter()
            .filter(|g| g.result.is_none())
            .map(|g| {
                let rank = |p| self.state.players[&p].registration.rank.value();
                (g.paired.table, rank(g.paired.black), rank(g.paired.white))
            })
            .collect();
        for (table, rb, rw) in open {
            let result = self.random_result(rb, rw, !decisive);
            self.run(Command::RecordResult { game: GameRef { round: number, table }, result })?;
        }
        Ok(())
    }

    /// Pairs and plays rounds until the event finishes (or `max_rounds` rounds were paired).
    pub fn play_to_end(&mut self, max_rounds: u32) -> Result<(), Rejection> {
        while !matches!(self.state.phase, Phase::Finished(_)) && self.state.current_round() < max_rounds {
            self.run(Command::PairRound)?;
            self.play_round()?;
        }
        Ok(())
    }
}

/// A synthetic field: ranks spread around 5 kyu, 200 clubs, 30 regions.
pub fn synthetic_field(players: usize, seed: u64) -> Vec<Registration> {
    let mut rng = stream(seed, Purpose::Simulation, 1);
    (1..=players as u32)
        .map(|i| {
            // A rough bell: the sum of three uniforms, centred on 5k.
            let v: i32 = (0..3).map(|_| rng.random_range(-9..=9)).sum::<i32>() / 2 - 4;
            let mut r = Registration::new(PlayerId(i), &format!("Player {i}"), Rank::from_value(v.clamp(-29, 7)));
            r.club = Some(format!("club-{}", rng.random_range(0..200)));
            r.region = Some(format!("region-{}", rng.random_range(0..30)));
            r
        })
        .collect()
}
