//! working_game's referee: plays every human seat of a game of Nim against the
//! student's program and checks the rules as the game goes, without caring how the program
//! words its questions.
//!
//! The judge only acts when the program pauses: waiting for input (the judge types), or
//! ended. Between pauses it reads what was printed as boards (in present_board's format) and
//! other lines, and checks each board against the true state of the game.
//!
//! The rules are the lab's own, from the comments of its working_game.py:
//!
//! > 1. Allow the players to choose any of the 3 required scenarios: Human vs Human, Human
//! >    vs Computer, Computer vs Computer.
//! > 2. Allow human players to enter user input (which row and how many elements).
//! > 3. Make computer players execute optimal strategy.
//! > 4. Change turns, but ONLY if the player made a legal move (give some meaningful error
//! >    message/ allow for input retry).
//! > 5. Announce the winner when the board is empty.
//!
//! So after an illegal move, asking the same player again is what counts; a message saying
//! why is advice, noted but not failed. A winner announced right after the last move is
//! right whether or not the empty board is drawn: the judge knows the board from the moves it
//! typed and from what a computer's turn must have done. A program that fixes its players and
//! board in code (the lab's starter ends with `play_nim("Put your name here", "Clever
//! Computer", [5, 4, 3, 2, 1])`) is played as it is and judged by rules 2 to 5; where it
//! cannot play a scenario's mode, that is rule 1, said as such.

use super::scenario::{HumanPlay, Scenario};
use crate::exercises::TranscriptEntry as Entry;
use crate::nim::{self, Move};
use crate::runner::{Pause, Session, Termination};
use crate::verdict::Verdict;
use num_bigint::BigInt;
use num_traits::Zero;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// A rule of the game as the statement sets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// The lab's rule 1: the players choose human against human, human against computer, or
    /// computer against computer.
    Modes,
    /// Players and board are asked for, then the board is shown before the first move.
    Setup,
    /// Every board shown is the true state of the game, in present_board's format.
    BoardShown,
    /// An illegal move leaves the board unchanged and the same player is asked again.
    IllegalRefused,
    /// A legal move is accepted.
    LegalAccepted,
    /// Players take turns: the turn passes after each legal move, and only then.
    TurnOrder,
    /// A computer's move wins whenever a winning move exists.
    ComputerOptimal,
    /// The player who took the last element is announced with "wins".
    Winner,
    /// The program ends by itself once the game is over.
    Ends,
}

impl Rule {
    pub fn describe(self) -> &'static str {
        match self {
            Rule::Modes => "the players choose any of the three modes",
            Rule::Setup => {
                "the game starts by asking for the players and the board, then shows the board"
            }
            Rule::BoardShown => "every board shown is the true state of the game",
            Rule::IllegalRefused => {
                "an illegal move changes nothing and the same player is asked again"
            }
            Rule::LegalAccepted => "a legal move is accepted",
            Rule::TurnOrder => "the players take turns",
            Rule::ComputerOptimal => "a computer player makes a winning move whenever one exists",
            Rule::Winner => "the winner is announced",
            Rule::Ends => "the program ends by itself when the game is over",
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct BrokenRule {
    pub rule: Rule,
    pub detail: String,
}

/// What the judge last typed, so that a crash can be traced to the line that caused it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Typed {
    /// The answer to setup question `index`: 0 and 1 are the players' names, 2 the board.
    Setup { index: usize, text: String },
    /// A human's turn: `is_move` if the text reads as a row and a number of elements.
    Move {
        text: String,
        is_move: bool,
        legal: bool,
    },
}

/// The outcome of one game.
#[derive(Debug, Clone)]
pub struct GameResult {
    pub verdict: Verdict,
    pub broken: Option<BrokenRule>,
    pub message: String,
    pub transcript: Vec<Entry>,
    /// Moves made (by humans and computers).
    pub moves: usize,
    /// Advice that fails nothing (the lab's rules suggest it), such as a message after an
    /// illegal move.
    pub notes: Vec<String>,
    /// The last line the judge typed, if any.
    pub last_typed: Option<Typed>,
}

/// A piece of the program's output: a board in present_board's format, or another line.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Shown {
    Board(Vec<u64>),
    /// A board heading with rows that do not read as present_board's format.
    Garbled(String),
    Line {
        text: String,
        complete: bool,
    },
}

/// "3: X X X" read as (3, 3); None if the line is not a row.
fn row_line(line: &str) -> Option<(usize, u64)> {
    let (number, rest) = line.trim().split_once(':')?;
    let number: usize = number.trim().parse().ok()?;
    let mut count = 0;
    for token in rest.split_whitespace() {
        if token != "X" {
            return None;
        }
        count += 1;
    }
    Some((number, count))
}

/// Splits output into boards and lines. `rows` is how many rows a board has, once known.
fn parse_output(text: &str, rows: Option<usize>) -> Vec<Shown> {
    let lines: Vec<(&str, bool)> = text
        .split_inclusive('\n')
        .map(|l| (l.trim_end_matches(['\n', '\r']), l.ends_with('\n')))
        .collect();
    let mut shown = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let (line, complete) = lines[i];
        if line.trim() != "Nim:" {
            shown.push(Shown::Line {
                text: line.to_string(),
                complete,
            });
            i += 1;
            continue;
        }
        let mut board = Vec::new();
        let mut j = i + 1;
        while j < lines.len() && rows.is_none_or(|r| board.len() < r) {
            match row_line(lines[j].0) {
                Some((number, count)) if number == board.len() + 1 => board.push(count),
                _ => break,
            }
            j += 1;
        }
        let expected_rows = rows.unwrap_or(board.len());
        if board.len() == expected_rows && !board.is_empty() {
            shown.push(Shown::Board(board));
        } else {
            let block: Vec<&str> = lines[i..j.max(i + 1)].iter().map(|l| l.0).collect();
            shown.push(Shown::Garbled(block.join("\n")));
        }
        i = j.max(i + 1);
    }
    shown
}

fn as_big(board: &[u64]) -> Vec<BigInt> {
    board.iter().map(|&r| BigInt::from(r)).collect()
}

/// The nim-sum of a board as the game holds it, by the lab's own arithmetic (`crate::nim`).
fn nim_sum(board: &[u64]) -> BigInt {
    nim::nim_sum(&as_big(board))
}

fn board_text(board: &[u64]) -> String {
    format!("{board:?}")
}

/// The single move that turns `before` into `after`, if there is one.
fn move_between(before: &[u64], after: &[u64]) -> Option<(usize, u64)> {
    if before.len() != after.len() {
        return None;
    }
    let changed: Vec<usize> = (0..before.len())
        .filter(|&i| before[i] != after[i])
        .collect();
    match changed.as_slice() {
        [row] if after[*row] < before[*row] => Some((row + 1, before[*row] - after[*row])),
        _ => None,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seat {
    Human,
    Computer,
    /// In the lab's fixed style the judge learns who is who by watching.
    Unknown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    /// Nothing seen yet.
    Undecided,
    /// The program asks for the players and the board.
    Configured,
    /// Players and board are fixed in the program; it shows the board before any question.
    Fixed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MoveFormat {
    Comma,
    Space,
}

/// What the judge typed for a human and is waiting to see the effect of.
#[derive(Debug, Clone)]
struct Attempt {
    typed: String,
    mv: Option<(i64, i64)>,
    legal: bool,
}

struct Referee<'a> {
    scenario: &'a Scenario,
    /// nimlab itself failed to type to the program: the game ends, and no rule was broken.
    lost: Option<String>,
    rng: ChaCha8Rng,
    style: Style,
    seats: [Seat; 2],
    board: Option<Vec<u64>>,
    initial: Option<Vec<u64>>,
    turn: usize,
    setup_answers: usize,
    attempt: Option<Attempt>,
    format: MoveFormat,
    format_known: bool,
    tried_other_format: bool,
    script: std::collections::VecDeque<String>,
    /// A complete line of text came after the judge last typed (a message, not just a prompt).
    said_something: bool,
    notes: Vec<String>,
    last_typed: Option<Typed>,
    winner: Option<usize>,
    winner_announced: bool,
    moves: usize,
    transcript: Vec<Entry>,
}

type Step = Result<(), BrokenRule>;

fn broken(rule: Rule, detail: impl Into<String>) -> Step {
    Err(BrokenRule {
        rule,
        detail: detail.into(),
    })
}

impl<'a> Referee<'a> {
    fn new(scenario: &'a Scenario) -> Self {
        Referee {
            scenario,
            lost: None,
            rng: ChaCha8Rng::seed_from_u64(scenario.seed),
            style: Style::Undecided,
            seats: [Seat::Unknown; 2],
            board: None,
            initial: None,
            turn: 0,
            setup_answers: 0,
            attempt: None,
            format: MoveFormat::Comma,
            format_known: false,
            tried_other_format: false,
            script: scenario.script.iter().cloned().collect(),
            said_something: false,
            notes: Vec::new(),
            last_typed: None,
            winner: None,
            winner_announced: false,
            moves: 0,
            transcript: Vec::new(),
        }
    }

    fn name(&self, seat: usize) -> String {
        match self.style {
            Style::Configured => self.scenario.players[seat].clone(),
            _ => format!("player {}", seat + 1),
        }
    }

    fn names_known(&self) -> bool {
        self.style == Style::Configured
    }

    /// Reads what the program printed since the last pause.
    fn read(&mut self, text: &str) -> Step {
        if !text.is_empty() {
            self.transcript.push(Entry::Program(text.to_string()));
        }
        let rows = self.board.as_ref().map(Vec::len);
        for item in parse_output(text, rows) {
            match item {
                Shown::Board(board) => self.board_shown(board)?,
                Shown::Garbled(block) => {
                    return broken(
                        Rule::BoardShown,
                        format!(
                            "this board is not in present_board's format (`N: X X X`, one row per line, numbered from 1):\n{block}"
                        ),
                    );
                }
                Shown::Line { text, complete } => self.line_shown(&text, complete)?,
            }
        }
        Ok(())
    }

    fn line_shown(&mut self, text: &str, complete: bool) -> Step {
        if complete && !text.trim().is_empty() {
            self.said_something = true;
        }
        if !text.to_lowercase().contains("wins") {
            return Ok(());
        }
        if self.winner.is_none() {
            // Announced right after the last move, without drawing the empty board.
            self.infer_last_move()?;
        }
        let Some(winner) = self.winner else {
            return Ok(());
        };
        self.winner_announced = true;
        if !self.names_known() {
            return Ok(());
        }
        let lower = text.to_lowercase();
        let (right, wrong) = (self.name(winner), self.name(1 - winner));
        if !lower.contains(&right.to_lowercase()) {
            let detail = if lower.contains(&wrong.to_lowercase()) {
                format!(
                    "{right} took the last element, but the program says `{}`",
                    text.trim()
                )
            } else {
                format!(
                    "the line `{}` does not name the winner, {right}",
                    text.trim()
                )
            };
            return broken(Rule::Winner, detail);
        }
        Ok(())
    }

    fn board_shown(&mut self, shown: Vec<u64>) -> Step {
        let Some(board) = self.board.clone() else {
            return self.first_board(shown);
        };
        if shown == board {
            return Ok(()); // shown again, unchanged
        }
        let mover = self.turn;
        if let Some(attempt) = self.attempt.take() {
            let name = self.name(mover);
            if !attempt.legal {
                return broken(
                    Rule::IllegalRefused,
                    format!(
                        "{name} typed `{}`, which is not a legal move on {}: the board should stay as it was and {name} be asked again, but the board changed to {}",
                        attempt.typed,
                        board_text(&board),
                        board_text(&shown)
                    ),
                );
            }
            let (row, elements) = attempt.mv.expect("legal attempts are moves");
            let mut expected = board.clone();
            expected[row as usize - 1] -= elements as u64;
            if shown != expected {
                return broken(
                    Rule::BoardShown,
                    format!(
                        "after {name}'s move {row}, {elements} on {} the board should be {}, but the program shows {}",
                        board_text(&board),
                        board_text(&expected),
                        board_text(&shown)
                    ),
                );
            }
            self.format_known = true;
            return self.moved(shown);
        }
        // The board changed with nothing typed: a computer moved.
        if self.winner.is_some() {
            return broken(
                Rule::Ends,
                format!(
                    "the board changed to {} after the game was over",
                    board_text(&shown)
                ),
            );
        }
        match self.seats[mover] {
            Seat::Human => {
                return broken(
                    Rule::TurnOrder,
                    format!(
                        "it was {}'s turn, and nothing was typed, but the board changed from {} to {}",
                        self.name(mover),
                        board_text(&board),
                        board_text(&shown)
                    ),
                );
            }
            Seat::Unknown => self.seats[mover] = Seat::Computer,
            Seat::Computer => {}
        }
        let Some((row, taken)) = move_between(&board, &shown) else {
            return broken(
                Rule::BoardShown,
                format!(
                    "the board went from {} to {}, which no single move does",
                    board_text(&board),
                    board_text(&shown)
                ),
            );
        };
        if !nim_sum(&board).is_zero() && !nim_sum(&shown).is_zero() {
            let example = nim::winning_moves(&as_big(&board))
                .into_iter()
                .next()
                .map(|m| format!("{}, {}", m.row, m.elements))
                .unwrap_or_default();
            return broken(
                Rule::ComputerOptimal,
                format!(
                    "{} played {row}, {taken} on {}, leaving nim-sum {}; a winning move existed (for example {example})",
                    self.name(mover),
                    board_text(&board),
                    nim_sum(&shown)
                ),
            );
        }
        self.moved(shown)
    }

    /// The move that must have ended the game when the program says so without showing the
    /// empty board: the legal move just typed, if it takes the last elements, or else a
    /// computer's turn on a board with one row left (emptying it is the only winning move).
    fn infer_last_move(&mut self) -> Step {
        let Some(board) = self.board.clone() else {
            return Ok(());
        };
        if let Some(attempt) = &self.attempt {
            let Some((row, elements)) = attempt.mv.filter(|_| attempt.legal) else {
                return Ok(());
            };
            let mut after = board;
            after[row as usize - 1] -= elements as u64;
            if after.iter().any(|&r| r > 0) {
                return Ok(());
            }
            self.attempt = None;
            self.format_known = true;
            return self.moved(after);
        }
        let rows_left = board.iter().filter(|&&r| r > 0).count();
        if rows_left != 1 || self.seats[self.turn] == Seat::Human {
            return Ok(());
        }
        self.seats[self.turn] = Seat::Computer;
        self.moved(vec![0; board.len()])
    }

    /// Rule 1, for a program that fixes its players in code: could it play this scenario's
    /// mode? Judged once the game it did play is over, by the seats seen.
    fn modes(&self) -> Step {
        if self.style != Style::Fixed {
            return Ok(());
        }
        let wanted = self
            .scenario
            .players
            .iter()
            .filter(|p| Scenario::is_computer(p))
            .count();
        let known = |seat| self.seats.iter().filter(|&&s| s == seat).count();
        let (computers, humans) = (known(Seat::Computer), known(Seat::Human));
        if (computers..=2 - humans).contains(&wanted) {
            return Ok(());
        }
        let seat = |i: usize| match self.seats[i] {
            Seat::Human => format!("a human (player {})", i + 1),
            Seat::Computer => format!("a computer (player {})", i + 1),
            Seat::Unknown => format!("a player nimlab never saw move (player {})", i + 1),
        };
        let [first, second] = &self.scenario.players;
        broken(
            Rule::Modes,
            format!(
                "the program fixes its players and board in code (it showed the board {} before asking anything), so it cannot play this scenario's {} ({first} and {second}); it played {} against {}",
                self.initial.as_deref().map(board_text).unwrap_or_default(),
                mode_name(wanted),
                seat(0),
                seat(1),
            ),
        )
    }

    fn first_board(&mut self, shown: Vec<u64>) -> Step {
        match self.style {
            Style::Undecided => {
                // A board before any question: the lab's style with players fixed in code.
                self.style = Style::Fixed;
            }
            Style::Configured if self.setup_answers < 3 => {
                return broken(
                    Rule::Setup,
                    "the program showed a board before it was given one",
                );
            }
            Style::Configured if shown != self.scenario.board => {
                return broken(
                    Rule::BoardShown,
                    format!(
                        "the board typed was {}, but the program shows {}",
                        board_text(&self.scenario.board),
                        board_text(&shown)
                    ),
                );
            }
            _ => {}
        }
        self.initial = Some(shown.clone());
        if shown.iter().all(|&r| r == 0) {
            return broken(Rule::Setup, "the game starts on an empty board");
        }
        self.board = Some(shown);
        Ok(())
    }

    fn moved(&mut self, board: Vec<u64>) -> Step {
        self.moves += 1;
        let over = board.iter().all(|&r| r == 0);
        self.board = Some(board);
        if over {
            self.winner = Some(self.turn);
        } else {
            self.turn = 1 - self.turn;
        }
        self.tried_other_format = false;
        Ok(())
    }

    /// The program waits for input: check that it should, and type what comes next.
    fn waiting(&mut self, prompt: &str, program: &mut dyn Session) -> Step {
        if self.style == Style::Undecided {
            self.style = Style::Configured;
            for (seat, name) in self.scenario.players.iter().enumerate() {
                self.seats[seat] = if Scenario::is_computer(name) {
                    Seat::Computer
                } else {
                    Seat::Human
                };
            }
        }
        if self.style == Style::Configured && self.setup_answers < 3 {
            let answer = match self.setup_answers {
                0 => self.scenario.players[0].clone(),
                1 => self.scenario.players[1].clone(),
                _ => self
                    .scenario
                    .board
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(" "),
            };
            let index = self.setup_answers;
            self.setup_answers += 1;
            self.type_line(&answer, program)?;
            self.last_typed = Some(Typed::Setup {
                index,
                text: answer,
            });
            return Ok(());
        }
        let Some(board) = self.board.clone() else {
            return broken(
                Rule::BoardShown,
                "the program asked for a move before showing the board",
            );
        };
        if let Some(winner) = self.winner {
            if !self.winner_announced {
                return broken(
                    Rule::Winner,
                    format!(
                        "the board is empty, but no line announced that {} wins",
                        self.name(winner)
                    ),
                );
            }
            return broken(
                Rule::Ends,
                "the game is over, but the program asked for more input",
            );
        }
        if let Some(attempt) = self.attempt.take() {
            self.refused(attempt, prompt, program)?;
            if self.attempt.is_some() {
                return Ok(()); // the same move, typed in the other format
            }
        }
        let mover = self.turn;
        match self.seats[mover] {
            Seat::Computer => {
                return broken(
                    Rule::TurnOrder,
                    format!(
                        "it is {}'s turn (a computer player), but the program asked for input",
                        self.name(mover)
                    ),
                );
            }
            Seat::Unknown => self.seats[mover] = Seat::Human,
            Seat::Human => {}
        }
        self.check_prompt_names(prompt)?;
        let (typed, mv) = self.next_human_input(&board);
        let legal = mv.is_some_and(|(row, elements)| {
            nim::validate(&as_big(&board), &Move::new(row, elements)).is_ok()
        });
        self.attempt = Some(Attempt {
            typed: typed.clone(),
            mv,
            legal,
        });
        self.type_line(&typed, program)?;
        self.last_typed = Some(Typed::Move {
            text: typed,
            is_move: mv.is_some(),
            legal,
        });
        Ok(())
    }

    /// The program asked again after the judge's last attempt: right for an illegal move;
    /// for a legal one, perhaps only the format was not understood.
    fn refused(&mut self, attempt: Attempt, prompt: &str, program: &mut dyn Session) -> Step {
        let name = self.name(self.turn);
        if attempt.legal {
            let (row, elements) = attempt.mv.expect("legal attempts are moves");
            if !self.format_known && !self.tried_other_format {
                self.tried_other_format = true;
                self.format = match self.format {
                    MoveFormat::Comma => MoveFormat::Space,
                    MoveFormat::Space => MoveFormat::Comma,
                };
                let typed = self.format_move(row, elements);
                self.attempt = Some(Attempt {
                    typed: typed.clone(),
                    mv: attempt.mv,
                    legal: true,
                });
                return self.type_line(&typed, program);
            }
            return broken(
                Rule::LegalAccepted,
                format!(
                    "{name} typed the legal move {row}, {elements} (as `{row}, {elements}` and as `{row} {elements}`), but the program asked again"
                ),
            );
        }
        // Asking again is the rule; saying why is the lab's advice, noted once per game.
        if !self.said_something && self.notes.is_empty() {
            self.notes.push(format!(
                "after {name} typed `{}`, which is not a legal move, the program asked again without saying why; a short message (which row, how many) helps the player",
                attempt.typed
            ));
        }
        // The same player must be asked again.
        self.check_prompt_names(prompt)
    }

    /// Where the prompt names one player and not the other, it must name the player to move.
    fn check_prompt_names(&self, prompt: &str) -> Step {
        if !self.names_known() {
            return Ok(());
        }
        let lower = prompt.to_lowercase();
        let (right, wrong) = (self.name(self.turn), self.name(1 - self.turn));
        if lower.contains(&wrong.to_lowercase()) && !lower.contains(&right.to_lowercase()) {
            return broken(
                Rule::TurnOrder,
                format!(
                    "it is {right}'s turn, but the program asks {wrong}: `{}`",
                    prompt.trim()
                ),
            );
        }
        Ok(())
    }

    fn format_move(&self, row: i64, elements: i64) -> String {
        match self.format {
            MoveFormat::Comma => format!("{row}, {elements}"),
            MoveFormat::Space => format!("{row} {elements}"),
        }
    }

    fn next_human_input(&mut self, board: &[u64]) -> (String, Option<(i64, i64)>) {
        if let Some(line) = self.script.pop_front() {
            let numbers: Vec<i64> = line
                .split_whitespace()
                .filter_map(|w| w.parse().ok())
                .collect();
            let words = line.split_whitespace().count();
            return match numbers.as_slice() {
                [row, elements] if words == 2 => {
                    (self.format_move(*row, *elements), Some((*row, *elements)))
                }
                _ => (line, None),
            };
        }
        let winning = nim::winning_moves(&as_big(board));
        let (row, elements) = match (self.scenario.then, winning.first()) {
            (HumanPlay::Optimal, Some(m)) => (
                i64::try_from(&m.row).expect("small board"),
                i64::try_from(&m.elements).expect("small board"),
            ),
            _ => {
                let rows: Vec<usize> = (0..board.len()).filter(|&i| board[i] > 0).collect();
                let row = rows[self.rng.random_range(0..rows.len())];
                (row as i64 + 1, self.rng.random_range(1..=board[row]) as i64)
            }
        };
        (self.format_move(row, elements), Some((row, elements)))
    }

    fn type_line(&mut self, line: &str, program: &mut dyn Session) -> Step {
        self.transcript.push(Entry::Typed(line.to_string()));
        self.said_something = false;
        program.type_line(line).map_err(|e| {
            let why = format!("nimlab could not type to the program: {e}");
            self.lost = Some(why.clone());
            BrokenRule {
                rule: Rule::Ends,
                detail: why,
            }
        })
    }

    /// The program ended by itself: was the game over, and was it announced?
    fn ended(&mut self) -> Step {
        if self.winner.is_none() {
            self.infer_last_move()?;
        }
        let Some(winner) = self.winner else {
            if self.board.is_none() {
                return broken(
                    Rule::BoardShown,
                    "the program ended without ever showing the board",
                );
            }
            if let Some(attempt) = self.attempt.as_ref().filter(|a| !a.legal) {
                let name = self.name(self.turn);
                return broken(
                    Rule::IllegalRefused,
                    format!(
                        "{name} typed `{}`, which is not a legal move, and the program ended instead of asking {name} again",
                        attempt.typed
                    ),
                );
            }
            return broken(Rule::Ends, "the program ended before the game was over");
        };
        if !self.winner_announced {
            return broken(
                Rule::Winner,
                format!(
                    "the board is empty, but no line announced that {} wins",
                    self.name(winner)
                ),
            );
        }
        // With perfect computers on both seats, the nim-sum of the first board decides.
        let computers = self.seats.iter().all(|s| *s == Seat::Computer);
        if let (true, Some(initial)) = (computers, &self.initial) {
            let predicted = if nim_sum(initial).is_zero() { 1 } else { 0 };
            if winner != predicted {
                return broken(
                    Rule::ComputerOptimal,
                    format!(
                        "the first board {} has nim-sum {}, so {} should win, but {} did",
                        board_text(initial),
                        nim_sum(initial),
                        self.name(predicted),
                        self.name(winner)
                    ),
                );
            }
        }
        self.modes()
    }
}

fn mode_name(computers: usize) -> &'static str {
    match computers {
        0 => "human against human",
        1 => "human against computer",
        _ => "computer against computer",
    }
}

/// How a program ended, for the verdict: a crash outranks an unfinished game.
pub struct Ending {
    pub crashed: bool,
    /// One line: "ValueError: ... (line 12)".
    pub crash_summary: Option<String>,
}

/// How the program ended, asked once it has paused for good.
fn ending(program: &mut dyn Session) -> Ending {
    let crashed = |summary: String| Ending {
        crashed: true,
        crash_summary: Some(summary),
    };
    match program.finish() {
        Ok(end) => match end.termination {
            Termination::Exited(0)
            | Termination::WallTimeout
            | Termination::CpuTimeout
            | Termination::OutputLimit => Ending {
                crashed: false,
                crash_summary: None,
            },
            Termination::Exited(code) => crashed(
                crate::feedback::traceback::traceback_summary(&end.stderr)
                    .unwrap_or_else(|| format!("the program exited with status {code}")),
            ),
            Termination::Signaled(signal) => {
                crashed(format!("the program was killed by signal {signal}"))
            }
        },
        Err(e) => crashed(format!("nimlab lost the program: {e}")),
    }
}

/// Plays `scenario` against `program`, checking every rule as the game goes.
pub fn play(scenario: &Scenario, program: &mut dyn Session) -> GameResult {
    let mut referee = Referee::new(scenario);
    // Each pause the judge answers at most once; a game cannot need more than this. A program
    // with its own board plays that board, so the bound follows the board in play.
    let most_pauses = |referee: &Referee| {
        let elements = referee
            .initial
            .as_deref()
            .unwrap_or(&scenario.board)
            .iter()
            .sum::<u64>()
            .max(scenario.board.iter().sum());
        8 + scenario.script.len() * 3 + elements as usize * 3
    };
    let mut verdict = None;
    let mut pauses = 0;
    while pauses < most_pauses(&referee) {
        pauses += 1;
        let resumed = program
            .resume()
            .map(|(pause, bytes)| (pause, crate::feedback::text::printable(&bytes)));
        let (pause, text) = match resumed {
            Ok(step) => step,
            Err(e) => {
                verdict = Some((
                    Verdict::JudgeError,
                    None,
                    format!("nimlab lost the program: {e}"),
                ));
                break;
            }
        };
        let prompt = text.rsplit('\n').next().unwrap_or("").to_string();
        let step = referee.read(&text).and_then(|()| match pause {
            Pause::Waiting => referee.waiting(&prompt, program),
            _ => Ok(()),
        });
        if let Err(rule) = step {
            if let Some(why) = referee.lost.take() {
                verdict = Some((Verdict::JudgeError, None, why));
                break;
            }
            // A crash explains a broken rule better than the rule does (a traceback).
            let end = (pause == Pause::Exited).then(|| ending(program));
            if let Some(Ending {
                crashed: true,
                crash_summary,
            }) = end
            {
                verdict = Some((
                    Verdict::RuntimeError,
                    None,
                    crash_summary.unwrap_or_default(),
                ));
            } else {
                verdict = Some((Verdict::WrongAnswer, Some(rule), String::new()));
            }
            break;
        }
        match pause {
            Pause::Waiting => continue,
            Pause::Exited => {
                let end = ending(program);
                verdict = Some(if end.crashed {
                    (
                        Verdict::RuntimeError,
                        None,
                        end.crash_summary.unwrap_or_default(),
                    )
                } else {
                    match referee.ended() {
                        Ok(()) => (Verdict::Accepted, None, String::new()),
                        Err(rule) => (Verdict::WrongAnswer, Some(rule), String::new()),
                    }
                });
            }
            Pause::TimedOut => {
                let why = if referee.winner.is_some() {
                    "the game was over, but the program did not end"
                } else {
                    "the program stalled: it neither asked for input nor ended"
                };
                verdict = Some((Verdict::TimeLimit, None, why.to_string()));
            }
            Pause::OutputLimit => {
                verdict = Some((
                    Verdict::OutputLimit,
                    None,
                    "the program printed more than the output limit".into(),
                ));
            }
        }
        break;
    }
    let (verdict, broken, message) = verdict.unwrap_or_else(|| {
        (
            Verdict::WrongAnswer,
            Some(BrokenRule {
                rule: Rule::Ends,
                detail: "the game went on far longer than its board allows".into(),
            }),
            String::new(),
        )
    });
    if broken.as_ref().is_some_and(|b| b.rule == Rule::Modes) {
        // The game played is not the scenario's: its start is the evidence (a board shown
        // before any question), the rest would only bury it.
        let first_typed = referee
            .transcript
            .iter()
            .position(|e| matches!(e, Entry::Typed(_)))
            .map_or(referee.transcript.len(), |at| at + 1);
        referee.transcript.truncate(first_typed);
    }
    let message = match &broken {
        Some(b) => {
            referee.transcript.push(Entry::Broken(format!(
                "{}: {}",
                b.rule.describe(),
                b.detail
            )));
            format!("{}: {}", b.rule.describe(), b.detail)
        }
        // An accepted game says what the lab's rules advise besides.
        None if verdict == Verdict::Accepted && !referee.notes.is_empty() => {
            format!("accepted; a suggestion: {}", referee.notes.join("; "))
        }
        None => message,
    };
    GameResult {
        verdict,
        broken,
        message,
        transcript: referee.transcript,
        moves: referee.moves,
        notes: referee.notes,
        last_typed: referee.last_typed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boards_are_read_in_present_boards_format() {
        let shown = parse_output(
            "Ada, your move: Nim:\n1: X X\n2:\n3:  X\nAda wins\n",
            Some(3),
        );
        assert_eq!(
            shown,
            vec![
                Shown::Line {
                    text: "Ada, your move: Nim:".into(),
                    complete: true
                },
                Shown::Line {
                    text: "1: X X".into(),
                    complete: true
                },
                Shown::Line {
                    text: "2:".into(),
                    complete: true
                },
                Shown::Line {
                    text: "3:  X".into(),
                    complete: true
                },
                Shown::Line {
                    text: "Ada wins".into(),
                    complete: true
                },
            ],
            "a heading glued to a prompt is not a board heading"
        );
        let shown = parse_output("Nim:\n1: X X\n2:\n3:  X\nBob, your move: ", Some(3));
        assert_eq!(shown[0], Shown::Board(vec![2, 0, 1]));
        assert_eq!(
            shown[1],
            Shown::Line {
                text: "Bob, your move: ".into(),
                complete: false
            }
        );
        assert!(matches!(
            parse_output("Nim:\n1: XX\n", Some(1))[0],
            Shown::Garbled(_)
        ));
        assert_eq!(
            parse_output("Nim:\n1: X\n2: X X\n", None)[0],
            Shown::Board(vec![1, 2])
        );
    }

    /// A program that asks for a name, to which nothing can be typed (nimlab's side failed).
    struct Untypable;

    impl Session for Untypable {
        fn resume(&mut self) -> Result<(Pause, Vec<u8>), crate::error::RunnerError> {
            Ok((Pause::Waiting, b"Player 1, what is your name? ".to_vec()))
        }
        fn type_line(&mut self, _line: &str) -> Result<(), crate::error::RunnerError> {
            Err(crate::error::RunnerError::System {
                what: "cannot type to the program",
                source: std::io::Error::from_raw_os_error(libc::ENOSPC),
            })
        }
        fn finish(&mut self) -> Result<crate::runner::RunOutcome, crate::error::RunnerError> {
            unreachable!("the referee does not end the session")
        }
    }

    #[test]
    fn failing_to_type_is_nimlabs_error_not_a_broken_rule() {
        let scenario = Scenario::parse("players = [\"Ada\", \"Bob\"]\nboard = [3, 1]\n").unwrap();
        let result = play(&scenario, &mut Untypable);
        assert_eq!(result.verdict, Verdict::JudgeError);
        assert!(result.broken.is_none());
        assert!(
            result.message.contains("could not type to the program"),
            "{}",
            result.message
        );
    }

    #[test]
    fn a_single_move_is_recognised() {
        assert_eq!(move_between(&[3, 4], &[3, 1]), Some((2, 3)));
        assert_eq!(move_between(&[3, 4], &[2, 3]), None);
        assert_eq!(move_between(&[3, 4], &[3, 5]), None);
    }

    #[test]
    fn scenarios_are_validated() {
        assert!(Scenario::parse("players = [\"Ada\", \"Computer\"]\nboard = [3, 1]\n").is_ok());
        let err = Scenario::parse("players = [\"Ada\", \"Adam\"]\nboard = [3]\n").unwrap_err();
        assert!(err.0.contains("contain"), "{err}");
        let err = Scenario::parse("players = [\"Ada\", \"Bob\"]\nboard = [0, 0]\n").unwrap_err();
        assert!(err.0.contains("at least one"), "{err}");
        let err = Scenario::parse("players = [\"Ada\", \"Bob\"]\nboard = [3]\nthen = \"lazy\"\n")
            .unwrap_err();
        assert!(err.0.contains("lazy"), "{err}");
    }
}
