//! working_game's referee: finds out how a student's game is played, plays every human seat
//! of a scenario against it, and checks the lab's rules as the game goes.
//!
//! The judge only acts when the program pauses: waiting for input (the judge reads the
//! question and answers it), or ended. Between pauses it reads what was printed: boards (in
//! present_board's format or another drawing `display` recognises), moves announced, and other
//! lines, and checks each board against the true state of the game.
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
//! and no more: how the players choose a scenario (names, a menu, yes or no), who starts when
//! a human meets the computer, how the board looks and how the winner is worded are the
//! student's. After an illegal move, asking the same player again is what counts; a message
//! saying why is advice, noted but not failed. A program that fixes its players and board in
//! code (the lab's starter ends with `play_nim("Put your name here", "Clever Computer", [5, 4,
//! 3, 2, 1])`) is played as it is and judged by rules 2 to 5; where it cannot play a
//! scenario's mode, that is rule 1, said as such. Where nimlab cannot find out how to play a
//! program, it says so (`Verdict::NotJudged`) and shows the questions, never "wrong answer".

use super::display::{self, Shown};
use super::questions::{self, Choice, Kind, Meaning, Mode, Question, Topic};
use super::scenario::{HumanPlay, Scenario};
use crate::exercises::TranscriptEntry as Entry;
use crate::nim::{self, Move};
use crate::runner::{Pause, Session, Termination};
use crate::verdict::Verdict;
use num_bigint::BigInt;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::sync::LazyLock;

/// A rule of the game as the statement sets it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// The lab's rule 1: the players choose human against human, human against computer, or
    /// computer against computer.
    Modes,
    /// The game starts on the board it was given, with at least one element.
    Setup,
    /// Every board shown is the true state of the game.
    BoardShown,
    /// An illegal move leaves the board unchanged and the same player is asked again.
    IllegalRefused,
    /// A legal move is accepted.
    LegalAccepted,
    /// Players take turns: the turn passes after each legal move, and only then.
    TurnOrder,
    /// A computer's move wins whenever a winning move exists (under the scenario's ending).
    ComputerOptimal,
    /// The winner is announced: the player who took the last element, or under misère the
    /// other one.
    Winner,
    /// The program ends by itself once the game is over.
    Ends,
}

impl Rule {
    pub fn describe(self) -> &'static str {
        match self {
            Rule::Modes => "the players choose any of the three modes",
            Rule::Setup => "the game starts on the board it was given",
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

/// What a setup answer was for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SetupAnswer {
    /// A player's name: 0 for the first asked, 1 for the second.
    Name(usize),
    /// The board, or a row's size.
    Board,
    /// A mode, yes or no, a choice from a menu, or a line an instructor gave.
    Choice,
}

/// What the judge last typed, so that a crash can be traced to the line that caused it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Typed {
    /// An answer before the game: what it was for, the text, and the question it answered.
    Setup {
        answer: SetupAnswer,
        text: String,
        question: String,
    },
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
    /// The questions the program asked before the game began, as it worded them.
    pub questions: Vec<String>,
    /// The rule the game was played under: who wins when the last element is taken.
    pub ending: nim::Ending,
    /// The scenario to play again from the start, with what this play found out: a reading
    /// nimlab guessed turned out wrong.
    pub replay: Option<Scenario>,
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

/// The board after taking `elements` from row `row` (from 1), if that is a legal move.
fn after_move(board: &[u64], row: u64, elements: u64) -> Option<Vec<u64>> {
    let index = usize::try_from(row).ok()?;
    if !(1..=board.len()).contains(&index) || !(1..=board[index - 1]).contains(&elements) {
        return None;
    }
    let mut after = board.to_vec();
    after[index - 1] -= elements;
    Some(after)
}

/// Whether `text` has one of `words` as a word of its own. A word may hold an apostrophe,
/// straight or typographic (`can't`, `isn’t`): it is matched whole, and each of its parts
/// as well (`ada's` has `ada`), and quotes around a word (`'win'`) do not hide it.
fn has_any(text: &str, words: &[&str]) -> bool {
    let apostrophe = |c: char| matches!(c, '\'' | '\u{2019}' | '\u{2018}' | '\u{02bc}');
    text.split(|c: char| !c.is_alphanumeric() && !apostrophe(c))
        .map(|word| word.trim_matches(apostrophe))
        .any(|word| {
            let straight = word.replace(apostrophe, "'");
            words.contains(&straight.as_str()) || word.split(apostrophe).any(|w| words.contains(&w))
        })
}

const WIN_WORDS: &[&str] = &[
    "win",
    "wins",
    "won",
    "winner",
    "winners",
    "victory",
    "victorious",
    "congratulations",
    "congrats",
    "champion",
    "triumphs",
    "beat",
    "beats",
];
const LOSE_WORDS: &[&str] = &["lose", "loses", "lost", "loser", "defeated", "defeat"];
/// Words a refusal of a move uses.
const REFUSAL_WORDS: &[&str] = &[
    "invalid",
    "illegal",
    "not",
    "can't",
    "cannot",
    "error",
    "again",
    "wrong",
    "only",
    "must",
    "too",
    "oops",
    "sorry",
    "impossible",
    "isn't",
    "doesn't",
    "don't",
    "won't",
    "aren't",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Seat {
    Human,
    Computer,
    /// Not yet seen to move, nor told.
    Unknown,
}

/// The ways a move can be typed, in the order they are tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MoveFormat {
    Comma,
    Space,
    Dash,
    Slash,
    Colon,
    /// As the question shows a move by example: `row=2 count=3`, `take 3 from row 2` (tried
    /// only where shown).
    Keyed,
    /// Two questions: the row, then the elements.
    TwoQuestions,
}

const FORMATS: [MoveFormat; 6] = [
    MoveFormat::Comma,
    MoveFormat::Space,
    MoveFormat::Dash,
    MoveFormat::Slash,
    MoveFormat::Colon,
    MoveFormat::TwoQuestions,
];

/// The first form of a move to try: the first the program did not crash on in an earlier
/// play.
fn first_format(crashed: &[String]) -> MoveFormat {
    FORMATS
        .into_iter()
        .find(|f| !crashed.contains(&shown_move(*f, 3, 2)))
        .unwrap_or(MoveFormat::Comma)
}

fn shown_move(format: MoveFormat, row: i64, elements: i64) -> String {
    match format {
        MoveFormat::Comma => format!("{row}, {elements}"),
        MoveFormat::Space => format!("{row} {elements}"),
        MoveFormat::Dash => format!("{row}-{elements}"),
        MoveFormat::Slash => format!("{row}/{elements}"),
        MoveFormat::Colon => format!("{row}:{elements}"),
        MoveFormat::Keyed => format!("row={row} count={elements}"),
        MoveFormat::TwoQuestions => format!("{row}, then {elements}"),
    }
}

/// What the judge typed for a human and is waiting to see the effect of.
#[derive(Debug, Clone)]
struct Attempt {
    /// The move as the transcript and messages show it.
    typed: String,
    /// The raw text for a line that is no move ("hello").
    raw: Option<String>,
    mv: Option<(i64, i64)>,
    legal: bool,
    /// In two questions: which parts were typed.
    row_typed: bool,
    elements_typed: bool,
    /// The formats this move was typed in.
    tried: Vec<MoveFormat>,
    /// The question it answered.
    question: String,
}

impl Attempt {
    fn complete(&self) -> bool {
        self.row_typed && self.elements_typed
    }

    fn row_is_legal(&self, board: &[u64]) -> bool {
        self.mv.is_some_and(|(row, _)| {
            row >= 1 && (row as usize) <= board.len() && board[row as usize - 1] > 0
        })
    }
}

struct Referee<'a> {
    scenario: &'a Scenario,
    wanted: Mode,
    /// nimlab itself failed to type to the program: the game ends, and no rule was broken.
    lost: Option<String>,
    /// nimlab could not find out how to play the program: why.
    undriven: Option<String>,
    rng: ChaCha8Rng,
    /// The program asked something before it showed a board.
    asked_first: bool,
    /// The program's questions before the game, as worded.
    questions: Vec<String>,
    /// A mode was chosen by answering a question about it (menu, yes or no, human or
    /// computer): seats are then learned by watching, not from the names.
    mode_asked: bool,
    seats: [Seat; 2],
    /// The names the judge gave, by seat, where it knows the seat.
    seat_names: [Option<String>; 2],
    /// Seats taken from the lab's naming convention alone (a name with "computer" in it is
    /// a computer), the program never having said how it seats a computer: a guess.
    seat_from_name: [bool; 2],
    /// People's names typed before the seats were known (`Experiment::neutral_names`).
    neutral_typed: Vec<String>,
    names_given: usize,
    kinds_given: usize,
    /// What the judge answered a seat is (a computer or not), by seat.
    kinds_answered: [Option<bool>; 2],
    rows_given: usize,
    /// What the judge typed as the board, once complete.
    board_typed: Option<Vec<u64>>,
    board: Option<Vec<u64>>,
    initial: Option<Vec<u64>>,
    boards_read: usize,
    /// Each accepted move so far was followed by a board before the next question.
    boards_follow_moves: bool,
    board_since_typed: bool,
    /// A line other than a board was printed since the judge last typed.
    said_since_typed: bool,
    /// A computer's move the program announced, not yet seen on a board: (line, board after).
    announced_pending: Option<(String, Vec<u64>)>,
    /// A computer's move announced after a human's illegal attempt: the line and the board
    /// it leads to. The turn passed, where the next board shows it.
    passed_after_illegal: Option<(String, Vec<u64>)>,
    /// The boards after each computer's move announced since the last board shown (after a
    /// human's legal move where one was typed): a board drawn once per round, or never
    /// again once the game is over, is reached through them.
    announced_chain: Vec<Vec<u64>>,
    /// The mark boards draw for taken elements (`O O x x`), once one has: the last board
    /// may be marks alone.
    taken_mark: Option<String>,
    turn: usize,
    attempt: Option<Attempt>,
    format: MoveFormat,
    format_known: bool,
    /// A move's form where the question shows it (`row=R count=N`, `take 3 from row 2`).
    keys: Option<Template>,
    /// The question showed the form of a move (an example, or its parts' names).
    format_shown: bool,
    /// The question names the amount before the row (`(amount row)`): moves are typed so.
    amount_first: bool,
    /// The question named the parts of a move in their order.
    order_shown: bool,
    script: std::collections::VecDeque<String>,
    /// Complete lines printed since the judge last typed (boards left out).
    since_typed: Vec<String>,
    /// The lines before the last question, for a bare prompt asked again (`>>> `).
    last_lines: Vec<String>,
    /// The question last answered, and how many times in a row it came back.
    last_question: Option<String>,
    repeats: usize,
    notes: Vec<String>,
    last_typed: Option<Typed>,
    winner: Option<usize>,
    /// Lines printed once the game was over, where the winner is announced.
    after_game: Vec<String>,
    moves: usize,
    transcript: Vec<Entry>,
    /// A menu answer nimlab guessed (its words left the choice open): (answer, label).
    guess: Option<(String, String)>,
    replay: Option<Scenario>,
    /// The last move's confirmation was answered, after the board was empty.
    confirmed_last: bool,
}

type Step = Result<(), BrokenRule>;

fn broken(rule: Rule, detail: impl Into<String>) -> Step {
    Err(BrokenRule {
        rule,
        detail: detail.into(),
    })
}

/// Marks the game as one nimlab could not drive; the step ends it without a broken rule.
const UNDRIVEN: Rule = Rule::Ends;

impl<'a> Referee<'a> {
    fn new(scenario: &'a Scenario) -> Self {
        Referee {
            scenario,
            wanted: scenario.mode(),
            lost: None,
            undriven: None,
            rng: ChaCha8Rng::seed_from_u64(scenario.seed),
            asked_first: false,
            questions: Vec::new(),
            mode_asked: false,
            seats: [Seat::Unknown; 2],
            seat_names: [None, None],
            seat_from_name: [false, false],
            neutral_typed: Vec::new(),
            names_given: 0,
            kinds_given: 0,
            kinds_answered: [None, None],
            rows_given: 0,
            board_typed: None,
            board: None,
            initial: None,
            boards_read: 0,
            boards_follow_moves: true,
            board_since_typed: false,
            said_since_typed: false,
            announced_pending: None,
            passed_after_illegal: None,
            announced_chain: Vec::new(),
            taken_mark: None,
            turn: 0,
            attempt: None,
            format: first_format(&scenario.experiment.crashed_forms),
            keys: None,
            format_shown: false,
            amount_first: scenario.experiment.amount_first,
            order_shown: false,
            format_known: false,
            script: scenario.script.iter().cloned().collect(),
            since_typed: Vec::new(),
            last_lines: Vec::new(),
            last_question: None,
            repeats: 0,
            notes: Vec::new(),
            last_typed: None,
            winner: None,
            after_game: Vec::new(),
            moves: 0,
            transcript: scenario
                .experiment
                .tried
                .iter()
                .map(|tried| Entry::Judge(tried.clone()))
                .collect(),
            guess: None,
            replay: None,
            confirmed_last: false,
        }
    }

    /// Notes a question asked before the game (once, where it is asked again).
    fn asked(&mut self, text: &str) {
        if self.questions.last().map(String::as_str) != Some(text) {
            self.questions.push(text.to_string());
        }
    }

    /// Ends the game as one nimlab could not play, saying why.
    fn cannot_drive(&mut self, why: impl Into<String>) -> Step {
        self.undriven = Some(why.into());
        broken(UNDRIVEN, "")
    }

    fn note(&mut self, text: impl Into<String>) {
        self.transcript.push(Entry::Judge(text.into()));
    }

    /// The name of a seat as the messages say it.
    fn name(&self, seat: usize) -> String {
        if let Some(name) = &self.seat_names[seat] {
            return name.clone();
        }
        match self.seats[seat] {
            Seat::Computer if self.seats[1 - seat] == Seat::Human => "the computer".into(),
            Seat::Human if self.seats[1 - seat] == Seat::Computer => self
                .human_name()
                .unwrap_or_else(|| "the human player".into()),
            _ => format!("player {}", seat + 1),
        }
    }

    /// The scenario's human, in a game of a human against the computer.
    fn human_name(&self) -> Option<String> {
        (self.wanted == Mode::HumanVsComputer)
            .then(|| {
                self.scenario
                    .players
                    .iter()
                    .find(|p| !Scenario::is_computer(p))
                    .cloned()
            })
            .flatten()
    }

    fn playing(&self) -> bool {
        self.board.is_some()
    }

    /// Reads what the program printed since the last pause: `text`, without its terminal
    /// escape sequences; the transcript keeps `shown`, every byte as printed made visible.
    fn read(&mut self, shown: &str, text: &str) -> Step {
        if !shown.is_empty() {
            self.transcript.push(Entry::Program(shown.to_string()));
        }
        let rows = self
            .board
            .as_ref()
            .or(self.board_typed.as_ref())
            .map(Vec::len);
        if let Some(mark) = display::taken_mark(text) {
            self.taken_mark = Some(mark);
        }
        for item in display::parse_output_marked(text, rows, self.taken_mark.as_deref()) {
            match item {
                Shown::Board { rows, .. } => {
                    self.boards_read += 1;
                    self.board_since_typed = true;
                    self.board_shown(rows)?;
                }
                Shown::Line { text, complete } => {
                    if complete {
                        self.said_since_typed |= !text.trim().is_empty();
                        self.since_typed.push(text.clone());
                    }
                    self.line_shown(&text)?;
                }
            }
        }
        Ok(())
    }

    fn line_shown(&mut self, text: &str) -> Step {
        if self.winner.is_some() {
            self.after_game.push(text.to_string());
            return Ok(());
        }
        let lower = text.to_lowercase();
        if has_any(&lower, WIN_WORDS) || has_any(&lower, LOSE_WORDS) {
            // Announced right after the last move, without drawing the empty board.
            self.infer_last_move()?;
            if self.winner.is_some() {
                self.after_game.push(text.to_string());
                return Ok(());
            }
        }
        if self.boards_read == 0 && self.board.is_none() {
            // A game between computers with a board nimlab cannot read: the board it typed.
            if let Some(typed) = self.board_typed.clone()
                && display::announced_move(&self.without_names(text)).is_some()
            {
                self.initial = Some(typed.clone());
                self.board = Some(typed);
            }
        }
        if self.boards_read == 0 && self.board.is_some() {
            self.announced(text)?;
        } else if self.boards_read > 0 {
            self.chain_announced(text, &lower);
        }
        if self.boards_read > 0
            && let Some(board) = self.board.clone()
            && self.attempt.is_none()
            && self.seats[self.turn] != Seat::Human
            && has_any(&lower, &["computer", "cpu", "ai", "bot"])
            && !has_any(&lower, REFUSAL_WORDS)
            && let Some((row, elements)) = display::announced_move(&self.without_names(text))
        {
            // Kept to hold against the next board: it should show this move.
            if let Some(after) = after_move(&board, row, elements) {
                self.announced_pending = Some((clipped(text.trim()), after));
            }
        }
        Ok(())
    }

    /// The board a human's typed legal move leads to, where the next player is no human.
    fn expected_after_attempt(&self) -> Option<Vec<u64>> {
        let attempt = self.attempt.as_ref()?;
        let (row, elements) = attempt.mv.filter(|_| attempt.legal && attempt.complete())?;
        if self.seats[1 - self.turn] == Seat::Human {
            return None;
        }
        let mut after = self.board.clone()?;
        after[row as usize - 1] -= elements as u64;
        Some(after)
    }

    /// A computer's move announced between boards: kept in the chain of boards it leads to.
    fn chain_announced(&mut self, text: &str, lower: &str) {
        if !has_any(lower, &["computer", "cpu", "ai", "bot"]) || has_any(lower, REFUSAL_WORDS) {
            return;
        }
        let Some((row, elements)) = display::announced_move(&self.without_names(text)) else {
            return;
        };
        let base = match (self.announced_chain.last(), &self.attempt) {
            (None, Some(attempt)) if !attempt.legal => {
                self.passed_after_illegal = self
                    .board
                    .as_deref()
                    .and_then(|board| after_move(board, row, elements))
                    .map(|after| (clipped(text.trim()), after));
                return;
            }
            (Some(last), _) => last.clone(),
            (None, Some(_)) => match self.expected_after_attempt() {
                Some(after) => after,
                None => return,
            },
            (None, None) if self.seats[self.turn] != Seat::Human => match &self.board {
                Some(board) => board.clone(),
                None => return,
            },
            (None, None) => return,
        };
        if let Some(after) = after_move(&base, row, elements) {
            self.announced_chain.push(after);
        }
    }

    /// Plays the chain of announced moves (after the human's typed move, if any) where it
    /// leads to `shown`: true if it did.
    fn follow_chain(&mut self, shown: &[u64]) -> Result<bool, BrokenRule> {
        let chain = std::mem::take(&mut self.announced_chain);
        let human = self.expected_after_attempt();
        let long_enough = chain.len() >= 2 || human.is_some();
        if chain.last().map(Vec::as_slice) != Some(shown) || !long_enough {
            return Ok(false);
        }
        let mut before = self.board.clone().expect("playing");
        if let Some(after) = human {
            self.attempt = None;
            self.format_known = true;
            self.moved(after.clone())?;
            before = after;
        }
        for after in chain {
            self.announced_pending = None;
            self.computer_moved(&before, after.clone())?;
            before = after;
        }
        Ok(true)
    }

    /// Where the board cannot be read, a move the program announces is how the judge follows
    /// a computer's turn (and learns that a human's legal move went through).
    fn announced(&mut self, text: &str) -> Step {
        let Some((row, elements)) = display::announced_move(&self.without_names(text)) else {
            return Ok(());
        };
        let board = self.board.clone().expect("playing");
        if let Some(attempt) = self.attempt.clone().filter(|a| a.complete()) {
            if attempt.legal {
                self.attempt = None;
                let (r, e) = attempt.mv.expect("legal attempts are moves");
                let mut after = board;
                after[r as usize - 1] -= e as u64;
                self.moved(after)?;
                if (r, e) == (row as i64, elements as i64) {
                    return Ok(()); // the human's move, echoed
                }
            } else {
                return Ok(());
            }
        }
        if self.attempt.is_some() || self.seats[self.turn] == Seat::Human {
            return Ok(());
        }
        let board = self.board.clone().expect("playing");
        let Some(after) = after_move(&board, row, elements) else {
            return broken(
                Rule::BoardShown,
                format!(
                    "the program says `{}`, which is not a legal move on {}",
                    clipped(text.trim()),
                    board_text(&board)
                ),
            );
        };
        self.computer_moved(&board, after)
    }

    /// A line with the players' names taken out ("Computer 1 took 2 from row 3" has two
    /// numbers, not three).
    fn without_names(&self, text: &str) -> String {
        let mut stripped = text.to_lowercase();
        for name in self
            .scenario
            .players
            .iter()
            .chain(self.seat_names.iter().flatten())
        {
            stripped = stripped.replace(&name.to_lowercase(), " ");
        }
        // Players numbered, not named: "Computer 1 takes 3 from row 3", "Player 2 took...".
        static NUMBERED: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r"\b(?:computer|player|cpu|bot|ai|p)\s*[#_-]?\s*[12]\b")
                .expect("valid pattern")
        });
        NUMBERED.replace_all(&stripped, " ").into_owned()
    }

    fn board_shown(&mut self, shown: Vec<u64>) -> Step {
        let Some(board) = self.board.clone() else {
            return self.first_board(shown);
        };
        if shown == board {
            if let Some((line, after)) = self.announced_pending.take() {
                return broken(
                    Rule::BoardShown,
                    format!(
                        "the program says `{line}`, so the board should be {}, but it shows {} unchanged",
                        board_text(&after),
                        board_text(&board)
                    ),
                );
            }
            return Ok(()); // shown again, unchanged
        }
        if self.winner.is_none() && self.follow_chain(&shown)? {
            return Ok(());
        }
        self.announced_chain.clear();
        self.announced_pending = None;
        if self.winner.is_some() {
            return broken(
                Rule::Ends,
                format!(
                    "the board changed to {} after the game was over",
                    board_text(&shown)
                ),
            );
        }
        let mover = self.turn;
        if let Some(attempt) = self.attempt.take() {
            let name = self.name(mover);
            if self.order_misread(&attempt, &board, &shown) {
                return self.order_swapped(&attempt, "took the first number as the amount");
            }
            if !attempt.legal {
                return Err(self.illegal_went_through(&attempt, &board, &shown));
            }
            let (row, elements) = attempt.mv.expect("legal attempts are moves");
            let mut expected = board.clone();
            expected[row as usize - 1] -= elements as u64;
            if shown == expected {
                self.format_known = true;
                return self.moved(shown);
            }
            if self.scenario.experiment.amount_first && !self.order_shown {
                return self.amount_first_unexplained(&attempt, &board, &shown);
            }
            // The board drawn only after the computer answered the human's move.
            let next_may_be_computer = self.seats[1 - mover] != Seat::Human;
            if next_may_be_computer
                && expected.iter().any(|&r| r > 0)
                && move_between(&expected, &shown).is_some()
            {
                self.format_known = true;
                self.moved(expected.clone())?;
                return self.computer_moved(&expected, shown);
            }
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
        self.computer_moved(&board, shown)
    }

    /// The board changed after an illegal attempt: the turn passed, where a computer's move
    /// was announced that leads to the board shown; else the illegal move was taken.
    fn illegal_went_through(
        &mut self,
        attempt: &Attempt,
        board: &[u64],
        shown: &[u64],
    ) -> BrokenRule {
        let name = self.name(self.turn);
        let passed = self.passed_after_illegal.take();
        let (rule, detail) = match passed.filter(|(_, after)| after == shown) {
            Some((line, _)) => (
                Rule::TurnOrder,
                format!(
                    "{name} typed `{}`, which is not a legal move on {}: {name} should be asked again, but the turn passed (`{line}`)",
                    attempt.typed,
                    board_text(board)
                ),
            ),
            None => (
                Rule::IllegalRefused,
                format!(
                    "{name} typed `{}`, which is not a legal move on {}: the board should stay as it was and {name} be asked again, but the board changed to {}",
                    attempt.typed,
                    board_text(board),
                    board_text(shown)
                ),
            ),
        };
        BrokenRule { rule, detail }
    }

    /// The board changed by the move typed read the other way round (the amount as the
    /// row), where the question did not say which part comes first: nimlab's guess of the
    /// order, not the program, was wrong.
    fn order_misread(&self, attempt: &Attempt, board: &[u64], shown: &[u64]) -> bool {
        let one_line = !matches!(self.format, MoveFormat::TwoQuestions | MoveFormat::Keyed);
        let Some((row, elements)) = attempt.mv else {
            return false;
        };
        let swapped = (usize::try_from(elements).ok(), u64::try_from(row).ok());
        let (Some(swapped_row), Some(swapped_count)) = swapped else {
            return false;
        };
        one_line
            && !self.order_shown
            && row != elements
            && move_between(board, shown) == Some((swapped_row, swapped_count))
    }

    /// A legal move refused in every form, before any move went through, that read with the
    /// amount first would be illegal: the refusal fits that order, which the question left open.
    fn refusal_fits_amount_first(&self, attempt: &Attempt) -> bool {
        let Some((row, elements)) = attempt.mv else {
            return false;
        };
        let board = self.board.clone().unwrap_or_default();
        let one_line = attempt.tried.iter().any(|f| *f != MoveFormat::TwoQuestions);
        !self.format_known
            && one_line
            && !self.order_shown
            && !self.scenario.experiment.amount_first
            && row != elements
            && nim::validate(&as_big(&board), &Move::new(elements, row)).is_err()
    }

    /// The amount first was nimlab's experiment: a board it cannot explain after a move
    /// typed so is no proof against the program.
    fn amount_first_unexplained(
        &mut self,
        attempt: &Attempt,
        board: &[u64],
        shown: &[u64],
    ) -> Step {
        self.cannot_drive(format!(
            "after {}'s move typed `{}` (the amount first, as the row first did not work) the board went from {} to {}",
            self.name(self.turn),
            attempt.typed,
            board_text(board),
            board_text(shown)
        ))
    }

    /// Plays the game again typing the amount before the row (or, where that was tried,
    /// gives up: neither order was the program's).
    fn order_swapped(&mut self, attempt: &Attempt, what: &str) -> Step {
        if self.scenario.experiment.amount_first {
            return self.cannot_drive(format!(
                "it typed `{}` meaning the amount first, as the row first did not work either, and the program took it the other way",
                attempt.typed
            ));
        }
        let tried = format!(
            "nimlab typed `{}` meaning the row first, and the program {what}: perhaps not that order",
            attempt.typed
        );
        let mut scenario = self.scenario.clone();
        scenario.experiment.amount_first = true;
        scenario.experiment.tried.push(tried.clone());
        self.replay = Some(scenario);
        self.cannot_drive(format!(
            "{tried}; nimlab plays the game again typing the amount first"
        ))
    }

    /// The board changed with nothing typed: a computer moved. Checks that it was a
    /// computer's turn, that the change is one move, and that it wins where it can.
    fn computer_moved(&mut self, board: &[u64], shown: Vec<u64>) -> Step {
        let mover = self.turn;
        match self.seats[mover] {
            Seat::Human if self.seat_from_name[mover] && self.names_guessed() => {
                return self.names_misled(&format!(
                    "{} moved without nimlab typing a move",
                    self.name(mover)
                ));
            }
            Seat::Human => {
                return broken(
                    Rule::TurnOrder,
                    format!(
                        "it was {}'s turn, and nothing was typed, but the board changed from {} to {}",
                        self.name(mover),
                        board_text(board),
                        board_text(&shown)
                    ),
                );
            }
            Seat::Unknown => self.seats[mover] = Seat::Computer,
            Seat::Computer => {}
        }
        let Some((row, taken)) = move_between(board, &shown) else {
            return broken(
                Rule::BoardShown,
                format!(
                    "the board went from {} to {}, which no single move does",
                    board_text(board),
                    board_text(&shown)
                ),
            );
        };
        let ending = self.scenario.ending;
        if ending.mover_wins(&as_big(board)) && ending.mover_wins(&as_big(&shown)) {
            let example = ending
                .winning_moves(&as_big(board))
                .into_iter()
                .next()
                .map(|m| format!("{}, {}", m.row, m.elements))
                .unwrap_or_default();
            let left = match ending {
                nim::Ending::Normal => format!("nim-sum {}", nim_sum(&shown)),
                nim::Ending::Misere => format!(
                    "{} to the opponent, who can now win under misère rules",
                    board_text(&shown)
                ),
            };
            return broken(
                Rule::ComputerOptimal,
                format!(
                    "{} played {row}, {taken} on {}, leaving {left}; a winning move existed (for example {example})",
                    self.name(mover),
                    board_text(board),
                ),
            );
        }
        self.moved(shown)
    }

    /// The move that must have ended the game when the program says so without showing the
    /// empty board: the legal move just typed, if it takes the last elements, or else a
    /// computer's turn on a board with one row left (emptying it is the only winning move; under
    /// misère, the only move left when the row holds one element).
    fn infer_last_move(&mut self) -> Step {
        let Some(board) = self.board.clone() else {
            return Ok(());
        };
        if self
            .announced_chain
            .last()
            .is_some_and(|last| last.iter().all(|&r| r == 0))
        {
            let empty = vec![0; board.len()];
            if self.follow_chain(&empty)? {
                return Ok(());
            }
        }
        if let Some(attempt) = &self.attempt {
            let Some((row, elements)) = attempt.mv.filter(|_| attempt.legal && attempt.complete())
            else {
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
        // Under misère a computer empties the last row only when it is forced to: one element.
        if self.scenario.ending == nim::Ending::Misere && board.iter().any(|&r| r > 1) {
            return Ok(());
        }
        self.seats[self.turn] = Seat::Computer;
        self.moved(vec![0; board.len()])
    }

    fn first_board(&mut self, shown: Vec<u64>) -> Step {
        if let Some(typed) = &self.board_typed
            && shown != *typed
        {
            return broken(
                Rule::BoardShown,
                format!(
                    "the board typed was {}, but the program shows {}",
                    board_text(typed),
                    board_text(&shown)
                ),
            );
        }
        if shown.iter().all(|&r| r == 0) {
            return broken(Rule::Setup, "the game starts on an empty board");
        }
        self.initial = Some(shown.clone());
        self.board = Some(shown);
        Ok(())
    }

    fn moved(&mut self, board: Vec<u64>) -> Step {
        self.moves += 1;
        let over = board.iter().all(|&r| r == 0);
        self.board = Some(board);
        if over {
            // The player who took the last element wins, or under misère loses.
            self.winner = Some(match self.scenario.ending {
                nim::Ending::Normal => self.turn,
                nim::Ending::Misere => 1 - self.turn,
            });
        } else {
            self.turn = 1 - self.turn;
        }
        Ok(())
    }

    /// The program waits for input: read its question, check that it should ask, and answer.
    fn waiting(&mut self, prompt: &str, program: &mut dyn Session) -> Step {
        let mut lines = std::mem::take(&mut self.since_typed);
        // A bare prompt (`>>> `) again with nothing printed: the same question as before.
        if lines.is_empty() && questions::bare(prompt) && !self.playing() && self.moves == 0 {
            lines = self.last_lines.clone();
        }
        self.last_lines = lines.clone();
        // Quoted in messages: a hostile program's question may be a megabyte long. A bare
        // prompt before the game is asked by the line above it.
        let bare = questions::bare(prompt) && !self.playing() && self.moves == 0;
        let text = clipped(questions::question_text(&lines, if bare { "" } else { prompt }).trim());
        if self.last_question.as_deref() == Some(text.as_str()) {
            self.repeats += 1;
        } else {
            self.repeats = 0;
        }
        self.last_question = Some(text.clone());
        if self.board.is_none() && self.moves == 0 {
            self.asked_first = true;
        }
        // The instructor's answers come first: they know their lab's questions.
        let given = self
            .scenario
            .answers
            .iter()
            .find_map(|a| a.for_question(&text, self.wanted))
            .map(str::to_string);
        if let Some(answer) = given {
            if self.repeats >= 3 {
                return self.cannot_drive(format!(
                    "the program asked `{text}` again after the lab's own answer `{answer}`"
                ));
            }
            if self.winner.is_none() && self.attempt.is_none() && self.moves == 0 {
                self.asked(&text);
            }
            return self.type_setup(SetupAnswer::Choice, &answer, &text, program);
        }
        let question = questions::classify(&lines, prompt, self.playing() || self.moves > 0);
        if self.winner.is_some() {
            return self.after_the_game(&question, &text, program);
        }
        let setup = question.before_the_game()
            || (question == Question::Unknown && !self.playing())
            || (matches!(question, Question::YesNo { .. })
                && self.moves == 0
                && self.attempt.is_none());
        if setup && self.moves == 0 && self.attempt.is_none() {
            self.asked(&text);
            return self.answer_setup(question, &text, program);
        }
        match question {
            Question::Continue => return self.type_line("", program),
            Question::YesNo { topic, yes, no } => {
                let answer = match topic {
                    Topic::Again | Topic::Rules => no,
                    _ => yes,
                };
                return self.type_line(&answer, program);
            }
            _ => {}
        }
        if self.board.is_none() {
            // Asked for a move before any board nimlab could read: the one it typed.
            match self.board_typed.clone() {
                Some(board) => {
                    self.initial = Some(board.clone());
                    self.board = Some(board);
                }
                None => {
                    return self.cannot_drive(format!(
                        "the program asks `{text}`, but there is no board nimlab could read in its output, and the program did not ask for one"
                    ));
                }
            }
        }
        self.human_turn(question, &text, &lines, program)
    }

    /// The game is over and the program asks for more: fine for "play again?" (no), wrong
    /// for anything else.
    fn after_the_game(
        &mut self,
        question: &Question,
        text: &str,
        program: &mut dyn Session,
    ) -> Step {
        if self.confirms_last_move(question, text) {
            // "Keep this move? (y/n)" after the last move: the winner comes once it is kept.
            self.confirmed_last = true;
            let yes = match question {
                Question::YesNo { yes, .. } => yes.clone(),
                _ => "y".into(),
            };
            return self.type_line(&yes, program);
        }
        self.check_winner()?;
        match question {
            Question::YesNo {
                topic: Topic::Again | Topic::Unknown,
                no,
                ..
            } if self.repeats == 0 => self.type_line(&no.clone(), program),
            Question::Menu(choices) if self.repeats == 0 => {
                // Of the ways out or aside, the one that leaves: not the rules.
                let aside: Vec<&Choice> = choices
                    .iter()
                    .filter(|c| c.means == Meaning::Other)
                    .collect();
                let leaves = aside.iter().find(|c| {
                    has_any(
                        &c.label.to_lowercase(),
                        &["quit", "exit", "leave", "bye", "stop", "end"],
                    )
                });
                match leaves.or(aside.first()) {
                    Some(quit) => self.type_line(&quit.answer.clone(), program),
                    None => broken(
                        Rule::Ends,
                        format!("the game is over, but the program asked `{text}`"),
                    ),
                }
            }
            Question::Continue if self.repeats == 0 => self.type_line("", program),
            _ => broken(
                Rule::Ends,
                "the game is over, but the program asked for more input",
            ),
        }
    }

    /// Asked to confirm a move once the board is empty, before any word of the winner: the
    /// last move's confirmation (asked once).
    fn confirms_last_move(&self, question: &Question, text: &str) -> bool {
        let Question::YesNo { topic, .. } = question else {
            return false;
        };
        let lower = text.to_lowercase();
        let about_a_move = *topic == Topic::Confirm
            || (*topic == Topic::Unknown
                && has_any(
                    &lower,
                    &[
                        "keep", "confirm", "sure", "correct", "right", "take", "remove",
                    ],
                ));
        let winner = self.winner.unwrap_or(0);
        let said = announcement(
            &self.after_game,
            &self.aliases(winner),
            &self.aliases(1 - winner),
        );
        about_a_move && !self.confirmed_last && said == Announced::Nothing
    }

    fn type_setup(
        &mut self,
        answer: SetupAnswer,
        text: &str,
        question: &str,
        program: &mut dyn Session,
    ) -> Step {
        self.type_line(text, program)?;
        self.last_typed = Some(Typed::Setup {
            answer,
            text: text.to_string(),
            question: question.to_string(),
        });
        Ok(())
    }

    /// Whether seat `seat` of the scenario is a computer.
    fn scenario_computer(&self, seat: usize) -> bool {
        Scenario::is_computer(&self.scenario.players[seat])
    }

    /// The answer to "is player N a computer?": the scenario's seats, except that against
    /// the computer the program's numbering of the seats is its own (who starts is its
    /// choice), so the other seat is the other kind, and a program that asks only about
    /// player 2 gets its computer there.
    fn seat_is_computer(&mut self, seat: usize) -> bool {
        let computer = match self.wanted {
            Mode::HumanVsHuman => false,
            Mode::ComputerVsComputer => true,
            Mode::HumanVsComputer => match self.kinds_answered[1 - seat] {
                Some(other) => !other,
                None if seat == 1 => true,
                None => self.scenario_computer(0),
            },
        };
        self.kinds_answered[seat] = Some(computer);
        computer
    }

    /// Answers a question asked before the game.
    fn answer_setup(&mut self, question: Question, text: &str, program: &mut dyn Session) -> Step {
        if self.repeats >= 3 {
            return self.cannot_drive(format!(
                "the program asked `{text}` four times in a row; nimlab's answers did not satisfy it"
            ));
        }
        match question {
            Question::Name { seat } => self.answer_name(seat, text, program),
            Question::Menu(choices) => self.answer_menu(&choices, text, program),
            Question::YesNo { topic, yes, no } => self.answer_yes_no(topic, yes, no, text, program),
            Question::Kind {
                seat,
                human,
                computer,
            } => self.answer_kind(seat, human, computer, text, program),
            Question::Board { commas } => self.answer_board(commas, text, program),
            Question::RowCount => self.answer_row_count(text, program),
            Question::RowSize(row) => self.answer_row_size(row, text, program),
            Question::HumanCount => self.answer_human_count(text, program, false),
            Question::ComputerCount => self.answer_human_count(text, program, true),
            Question::Continue => self.type_line("", program),
            // Any number: the board is read from what the program then draws.
            Question::Seed => self.type_setup(SetupAnswer::Choice, "1", text, program),
            _ => self.answer_unknown(text, program),
        }
    }

    /// A player's name: the scenario's, for the seat asked or the next one. Where the
    /// question says which word seats the computer, that word; before the seats are known
    /// and after the lab's convention misled, a person's name.
    fn answer_name(&mut self, seat: Option<usize>, text: &str, program: &mut dyn Session) -> Step {
        if self.repeats >= 2 {
            return self.cannot_drive(format!(
                "the program asked `{text}` again after nimlab typed a name"
            ));
        }
        let index = self.names_given.min(1);
        let asked_seat = seat.unwrap_or(index);
        if !self.mode_asked
            && let Some(word) = questions::computer_word(text)
        {
            // The program's own words say how a computer takes a seat.
            let computer = self.scenario_computer(asked_seat);
            let name = if computer {
                word
            } else {
                self.scenario.players[asked_seat].clone()
            };
            self.seats[asked_seat] = if computer {
                Seat::Computer
            } else {
                Seat::Human
            };
            self.seat_names[asked_seat] = (!computer).then(|| name.clone());
            self.names_given += 1;
            return self.type_setup(SetupAnswer::Name(index), &name, text, program);
        }
        if !self.mode_asked && self.scenario.experiment.neutral_names {
            let name = self.neutral_name(self.names_given);
            if self.wanted == Mode::HumanVsHuman {
                self.seat_names[asked_seat] = Some(name.clone());
            }
            self.neutral_typed.push(name.clone());
            self.names_given += 1;
            return self.type_setup(SetupAnswer::Name(index), &name, text, program);
        }
        let name = self.scenario_name(seat, index, asked_seat, text);
        if !self.mode_asked {
            // The lab's way: the names say who is a computer (a guess, the program not
            // having said so).
            self.seats[asked_seat] = if Scenario::is_computer(&name) {
                Seat::Computer
            } else {
                Seat::Human
            };
            self.seat_from_name[asked_seat] = !text.to_lowercase().contains("computer");
        }
        if self.wanted != Mode::HumanVsComputer || !self.mode_asked {
            self.seat_names[asked_seat] = Some(name.clone());
        }
        self.names_given += 1;
        self.type_setup(SetupAnswer::Name(index), &name, text, program)
    }

    /// The scenario's name for a name question.
    fn scenario_name(&self, seat: Option<usize>, index: usize, asked: usize, text: &str) -> String {
        match self.wanted {
            // Asked for names after choosing a game against the computer: the human's first.
            Mode::HumanVsComputer if self.mode_asked => {
                let human = self.human_name().unwrap_or_default();
                let computer = self
                    .scenario
                    .players
                    .iter()
                    .find(|p| Scenario::is_computer(p))
                    .cloned()
                    .unwrap_or_default();
                if seat.is_none() && (index == 0 || text.to_lowercase().contains("your")) {
                    human
                } else if self.seat_names.iter().flatten().any(|n| *n == human) {
                    computer
                } else {
                    human
                }
            }
            _ => self.scenario.players[asked].clone(),
        }
    }

    /// The `nth` person's name typed: the scenario's people first, then others, none
    /// containing another.
    fn neutral_name(&self, nth: usize) -> String {
        let mut names: Vec<String> = Vec::new();
        let people = self
            .scenario
            .players
            .iter()
            .filter(|p| !Scenario::is_computer(p));
        for name in people
            .cloned()
            .chain(["Ada", "Bob", "Cleo", "Dan"].map(String::from))
        {
            let lower = name.to_lowercase();
            let clash = names.iter().any(|b| {
                let b = b.to_lowercase();
                b.contains(&lower) || lower.contains(&b)
            });
            if !lower.is_empty() && !clash {
                names.push(name);
            }
        }
        names[nth.min(names.len() - 1)].clone()
    }

    /// A seat nimlab took from the lab's naming convention alone was contradicted by the
    /// game (`how`): the game is played again with people's names.
    fn names_misled(&mut self, how: &str) -> Step {
        let tried = format!(
            "nimlab typed the scenario's names ({}), taking a name with \"computer\" in it for a computer, but {how}",
            quoted(&self.scenario.players)
        );
        let mut scenario = self.scenario.clone();
        scenario.experiment.neutral_names = true;
        scenario.experiment.tried.push(tried.clone());
        self.replay = Some(scenario);
        self.cannot_drive(format!(
            "{tried}; nimlab plays the game again typing people's names"
        ))
    }

    /// Whether names the lab's convention guessed may be tried again as people's names.
    fn names_guessed(&self) -> bool {
        self.seat_from_name.iter().any(|&s| s) && !self.scenario.experiment.neutral_names
    }

    /// A menu: the choice of the scenario's mode, or else of who moves first. A choice whose
    /// label alone means the mode is held to it; where the labels leave it open (a label
    /// nimlab cannot read, two labels read as one mode), nimlab guesses among those, and a
    /// guess the game proves wrong is tried no more (the game is played again).
    fn answer_menu(&mut self, choices: &[Choice], text: &str, program: &mut dyn Session) -> Step {
        let people = self.people_read(choices);
        let choices = people.as_deref().unwrap_or(choices);
        let wanted = self.wanted;
        let first_kind = if self.scenario_computer(0) {
            Kind::Computer
        } else {
            Kind::Human
        };
        let read_as = |means: Meaning| choices.iter().filter(|c| c.means == means).count();
        let modes_menu = choices.iter().any(|c| matches!(c.means, Meaning::Mode(_)));
        let held = choices
            .iter()
            .find(|c| c.means == Meaning::Mode(wanted) && read_as(c.means) == 1)
            .or_else(|| {
                choices
                    .iter()
                    .find(|c| c.means == Meaning::First(first_kind))
                    .filter(|_| !modes_menu)
            })
            .or_else(|| {
                // A main menu: into the game; its mode is asked next.
                choices
                    .iter()
                    .find(|c| c.means == Meaning::Play)
                    .filter(|_| !modes_menu)
            });
        if self.repeats > 0 {
            let typed = self.guess.as_ref().map(|g| g.0.clone());
            let typed = typed.or(held.map(|c| c.answer.clone())).unwrap_or_default();
            return self.cannot_drive(format!(
                "the program asked `{text}` again after nimlab chose `{}`",
                clipped(&typed)
            ));
        }
        if let Some(choice) = held {
            if matches!(choice.means, Meaning::Mode(_)) {
                self.mode_asked = true;
            }
            let answer = choice.answer.clone();
            self.note(format!(
                "nimlab chose `{}` for {}",
                clipped(choice.label.trim()),
                wanted.describe()
            ));
            return self.type_setup(SetupAnswer::Choice, &answer, text, program);
        }
        let open: Vec<&Choice> = choices
            .iter()
            .filter(|c| match c.means {
                // In a menu of modes, a label read as who starts is no mode nimlab can name.
                Meaning::Unknown | Meaning::First(_) => true,
                Meaning::Mode(_) => read_as(c.means) > 1,
                Meaning::Other | Meaning::Play => false,
            })
            .collect();
        if !modes_menu {
            return self.cannot_drive(format!(
                "it could not tell which choice of `{text}` lets the {} move first",
                if first_kind == Kind::Computer {
                    "computer"
                } else {
                    "human"
                }
            ));
        }
        if open.is_empty() {
            let offered: Vec<String> = choices.iter().map(|c| clipped(c.label.trim())).collect();
            return broken(
                Rule::Modes,
                format!(
                    "the menu offers {}, but not {}",
                    offered.join("; "),
                    wanted.describe()
                ),
            );
        }
        self.guess_menu(&open, text, program)
    }

    /// A menu whose labels name the people nimlab typed ("1) Ada vs Bob"): each such name
    /// read as a human.
    fn people_read(&self, choices: &[Choice]) -> Option<Vec<Choice>> {
        if self.neutral_typed.is_empty() {
            return None;
        }
        let read = choices.iter().map(|c| {
            let mut label = c.label.clone();
            for name in &self.neutral_typed {
                label = label.replace(name.as_str(), "Human");
            }
            let means = if label == c.label {
                c.means
            } else {
                questions::meaning(&label)
            };
            Choice { means, ..c.clone() }
        });
        Some(read.collect())
    }

    /// A choice of a menu whose words leave the mode open: the first not yet proved wrong.
    fn guess_menu(&mut self, open: &[&Choice], text: &str, program: &mut dyn Session) -> Step {
        let wanted = self.wanted;
        if self.names_guessed() {
            // The names nimlab typed may be what makes the menu ambiguous ("Ada vs Computer"
            // twice): people's names first.
            return self.names_misled(&format!(
                "the menu `{text}` then left {} open",
                wanted.describe()
            ));
        }
        let wrong = &self.scenario.experiment.wrong_keys;
        let Some(choice) = open.iter().find(|c| !wrong.contains(&c.answer)) else {
            let tried = if wrong.is_empty() {
                String::new()
            } else {
                format!(" (it tried {}, which played another mode)", quoted(wrong))
            };
            return self.cannot_drive(format!(
                "it could not tell which choice of `{text}` plays {}{tried}",
                wanted.describe()
            ));
        };
        self.mode_asked = true;
        self.guess = Some((choice.answer.clone(), clipped(choice.label.trim())));
        self.note(format!(
            "the menu does not say which choice plays {}: nimlab tries `{}` ({})",
            wanted.describe(),
            choice.answer,
            clipped(choice.label.trim())
        ));
        let answer = choice.answer.clone();
        self.type_setup(SetupAnswer::Choice, &answer, text, program)
    }

    /// A game that went otherwise than a guess of nimlab's said: never the program's fault.
    /// A menu answer that played another mode is dropped and the game played again; a form of
    /// move the program crashed on, where the question did not show the form, likewise.
    fn weigh_guesses(&mut self, outcome: Outcome) -> Outcome {
        if let Some((key, label)) = self.guess.clone()
            && outcome.verdict != Verdict::Accepted
            && self.modes().is_err()
        {
            let played = self.seats_described();
            let tried = format!(
                "nimlab tried `{key}` ({label}) for {}, and the program played {played}: not that choice",
                self.wanted.describe()
            );
            let mut scenario = self.scenario.clone();
            scenario.experiment.wrong_keys.push(key);
            scenario.experiment.tried.push(tried.clone());
            self.replay = Some(scenario);
            return Outcome::new(
                Verdict::NotJudged,
                format!("{tried}; nimlab plays the game again to try another"),
            );
        }
        if outcome.verdict == Verdict::RuntimeError
            && let Some(form) = self.crashed_form(&outcome.message)
        {
            let mut scenario = self.scenario.clone();
            scenario.experiment.crashed_forms.push(form.clone());
            scenario.experiment.tried.push(format!(
                "the program crashed after nimlab typed a move in the form `{}`; nimlab played the game again typing moves in another form",
                form
            ));
            let crashed = &scenario.experiment.crashed_forms;
            let untried = FORMATS.iter().any(|f| {
                *f != MoveFormat::TwoQuestions && !crashed.contains(&shown_move(*f, 3, 2))
            });
            if untried {
                self.replay = Some(scenario);
            }
        }
        outcome
    }

    /// The form of move (as `3, 2` shows it) the program crashed on right after nimlab typed
    /// it, where nothing showed that form to be the program's and the crash (its last line,
    /// `crash`) is about reading the line: a value it could not convert, or a piece of the line
    /// with the form's separator in it (`'3,'`). A crash on a well-formed move is the program's.
    fn crashed_form(&self, crash: &str) -> Option<String> {
        let Some(Typed::Move {
            text,
            is_move: true,
            ..
        }) = &self.last_typed
        else {
            return None;
        };
        let whole_line = !matches!(self.format, MoveFormat::TwoQuestions | MoveFormat::Keyed);
        let about_the_line = crash.contains("ValueError")
            || crash.contains("invalid literal")
            || text
                .split_whitespace()
                .any(|piece| !piece.chars().all(|c| c.is_ascii_digit()) && crash.contains(piece));
        (whole_line && about_the_line && !self.format_known && !self.format_shown)
            .then(|| shown_move(self.format, 3, 2))
    }

    /// The seats as the game showed them: "a human (player 1) against a computer (player 2)".
    fn seats_described(&self) -> String {
        let seat = |i: usize| match self.seats[i] {
            Seat::Human => "a human",
            Seat::Computer => "a computer",
            Seat::Unknown => "a player nimlab never saw move",
        };
        format!("{} against {}", seat(0), seat(1))
    }

    /// "How many human players?": the scenario's mode as its number of humans (of computers,
    /// where it asks `computers`).
    fn answer_human_count(
        &mut self,
        text: &str,
        program: &mut dyn Session,
        computers: bool,
    ) -> Step {
        if self.repeats > 0 {
            return self.cannot_drive(format!(
                "the program asked `{text}` again after nimlab answered it"
            ));
        }
        self.mode_asked = true;
        let count = if computers {
            self.wanted.computers()
        } else {
            2 - self.wanted.computers()
        };
        self.type_setup(SetupAnswer::Choice, &count.to_string(), text, program)
    }

    /// Whether to answer yes to a question before the game, by its topic.
    fn says_yes(&mut self, topic: Topic) -> bool {
        let retry = self.repeats > 0;
        match topic {
            Topic::Computer {
                seat: Some(seat), ..
            } => self.seat_is_computer(seat),
            Topic::Computer { both: true, .. } => self.wanted == Mode::ComputerVsComputer,
            Topic::Computer { .. } => self.wanted != Mode::HumanVsHuman,
            Topic::Human { seat: Some(seat) } => !self.seat_is_computer(seat),
            Topic::Human { seat: None } => self.wanted == Mode::HumanVsHuman,
            Topic::GoFirst { computer } => self.scenario_computer(0) == computer,
            Topic::Again | Topic::Rules => false,
            Topic::Confirm | Topic::Unknown => !retry,
        }
    }

    /// Yes or no, by the topic; asked again, the same answer in the other spelling.
    fn answer_yes_no(
        &mut self,
        topic: Topic,
        yes: String,
        no: String,
        text: &str,
        program: &mut dyn Session,
    ) -> Step {
        let retry = self.repeats > 0;
        let says_yes = self.says_yes(topic);
        if matches!(topic, Topic::Computer { .. } | Topic::Human { .. }) {
            self.mode_asked = true;
        }
        if retry && !matches!(topic, Topic::Unknown | Topic::Confirm) {
            // The same answer again, in the other spelling ("yes" for "y").
            let answer = if says_yes { &yes } else { &no };
            let other = if answer.len() == 1 {
                if says_yes { "yes" } else { "no" }
            } else if says_yes {
                "y"
            } else {
                "n"
            };
            if self.repeats >= 2 {
                return self.cannot_drive(format!(
                    "the program asked `{text}` again after nimlab answered it `{answer}` and `{other}`"
                ));
            }
            self.note(format!("`{answer}` was not taken; nimlab tries `{other}`"));
            return self.type_setup(SetupAnswer::Choice, other, text, program);
        }
        let answer = if says_yes { yes } else { no };
        self.type_setup(SetupAnswer::Choice, &answer, text, program)
    }

    /// "Is player 1 a human or a computer?": the seat asked, or the next one.
    fn answer_kind(
        &mut self,
        seat: Option<usize>,
        human: String,
        computer: String,
        text: &str,
        program: &mut dyn Session,
    ) -> Step {
        let seat = seat.unwrap_or(self.kinds_given.min(1));
        self.kinds_given += 1;
        self.mode_asked = true;
        if self.repeats > 0 {
            return self.cannot_drive(format!(
                "the program asked `{text}` again after nimlab answered it"
            ));
        }
        let answer = if self.seat_is_computer(seat) {
            computer
        } else {
            human
        };
        self.type_setup(SetupAnswer::Choice, &answer, text, program)
    }

    /// The board on one line: its sizes separated by spaces, then (asked again) by commas.
    fn answer_board(&mut self, commas: bool, text: &str, program: &mut dyn Session) -> Step {
        let tries = [" ", ", ", ","];
        let first = if commas { 1 } else { 0 };
        let Some(sep) = tries.get(first + self.repeats) else {
            return self.cannot_drive(format!(
                "the program asked `{text}` again after nimlab typed the board as sizes separated by spaces and by commas"
            ));
        };
        if self.repeats > 0 {
            self.note("the board was not taken in that form; nimlab tries another");
        }
        self.board_typed = Some(self.scenario.board.clone());
        let answer = self
            .scenario
            .board
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(sep);
        self.type_setup(SetupAnswer::Board, &answer, text, program)
    }

    fn answer_row_count(&mut self, text: &str, program: &mut dyn Session) -> Step {
        if self.repeats > 0 {
            return self.cannot_drive(format!(
                "the program asked `{text}` again after nimlab typed the number of rows"
            ));
        }
        self.rows_given = 0;
        let rows = self.scenario.board.len().to_string();
        self.type_setup(SetupAnswer::Board, &rows, text, program)
    }

    /// The size of a row: the one asked, or the next.
    fn answer_row_size(
        &mut self,
        row: Option<usize>,
        text: &str,
        program: &mut dyn Session,
    ) -> Step {
        let row = row.unwrap_or(self.rows_given + 1);
        if self.repeats > 0 && row == self.rows_given {
            return self.cannot_drive(format!(
                "the program asked `{text}` again after nimlab typed the row's size"
            ));
        }
        let Some(size) = self.scenario.board.get(row.wrapping_sub(1)) else {
            return self.cannot_drive(format!(
                "the program asks `{text}`, but the scenario's board has {} rows",
                self.scenario.board.len()
            ));
        };
        self.rows_given = row;
        if row == self.scenario.board.len() {
            self.board_typed = Some(self.scenario.board.clone());
        }
        let size = size.to_string();
        self.type_setup(SetupAnswer::Board, &size, text, program)
    }

    /// A question nimlab cannot read: Enter, once.
    fn answer_unknown(&mut self, text: &str, program: &mut dyn Session) -> Step {
        if self.repeats > 0 {
            return self.cannot_drive(format!(
                "it could not read the question `{text}` (it tried an empty line)"
            ));
        }
        self.note("nimlab did not recognise this question and pressed Enter");
        self.type_setup(SetupAnswer::Choice, "", text, program)
    }

    /// A human's turn: resolves what the last attempt did, then types the next move (or its
    /// next part).
    fn human_turn(
        &mut self,
        question: Question,
        text: &str,
        lines: &[String],
        program: &mut dyn Session,
    ) -> Step {
        let board = self.board.clone().expect("playing");
        if let Some(attempt) = self.attempt.take() {
            // The second question of a move in two.
            if !attempt.complete() {
                let wants_elements = question == Question::Elements;
                let wants_row = question == Question::Row;
                if attempt.row_typed && wants_elements || attempt.elements_typed && wants_row {
                    return self.type_part(attempt, wants_row, program);
                }
                if attempt.row_typed && !attempt.row_is_legal(&board) {
                    // Refused at the row: right.
                    self.refused_illegal(&attempt)?;
                } else if attempt.legal {
                    return self.retry_legal(attempt, &question, program);
                } else {
                    self.refused_illegal(&attempt)?;
                }
            } else if attempt.legal {
                self.unchanged_board_after(&attempt, &board, text, lines)?;
                if self.went_through(&attempt, text, lines) {
                    let (row, elements) = attempt.mv.expect("legal attempts are moves");
                    let mut after = board.clone();
                    after[row as usize - 1] -= elements as u64;
                    self.boards_follow_moves = false;
                    self.format_known = true;
                    self.moved(after)?;
                    if self.winner.is_some() {
                        return self.after_the_game(&question, text, program);
                    }
                } else {
                    return self.retry_legal(attempt, &question, program);
                }
            } else {
                self.refused_illegal(&attempt)?;
                if question == Question::Elements && self.format == MoveFormat::TwoQuestions {
                    // Asked again how many, for the same row.
                    return self.elements_again(attempt, program);
                }
            }
        }
        self.next_move(question, text, program)
    }

    /// Types the move of the player whose turn it is (or its first part), in the form the
    /// question asks for; a computer's turn is no human's to type.
    fn next_move(&mut self, question: Question, text: &str, program: &mut dyn Session) -> Step {
        let board = self.board.clone().expect("playing");
        let mover = self.turn;
        match self.seats[mover] {
            Seat::Computer => {
                if question == Question::Unknown && self.repeats == 0 {
                    return self.type_line("", program);
                }
                if self.seat_from_name[mover] && self.names_guessed() {
                    return self.names_misled(&format!(
                        "the program asked {} for a move: `{text}`",
                        self.name(mover)
                    ));
                }
                return broken(
                    Rule::TurnOrder,
                    format!(
                        "it is {}'s turn (a computer player), but the program asked `{text}`",
                        self.name(mover)
                    ),
                );
            }
            Seat::Unknown => self.seats[mover] = Seat::Human,
            Seat::Human => {}
        }
        self.check_prompt_names(text)?;
        if !self.format_known {
            self.keys = keyed_hinted(text).or(self.keys.take());
            let crashed = &self.scenario.experiment.crashed_forms;
            let order = parts_named(text);
            self.amount_first = order.map_or(self.scenario.experiment.amount_first, |o| o.0);
            self.order_shown = order.is_some() || self.keys.is_some();
            let hinted = format_hinted(text)
                .or(order.map(|(_, format)| format))
                .filter(|f| !crashed.contains(&shown_move(*f, 3, 2)));
            self.format = match self.keys {
                Some(_) => MoveFormat::Keyed,
                None => hinted.unwrap_or(self.format),
            };
            self.format_shown = hinted.is_some() || self.keys.is_some() || order.is_some();
        }
        let (typed, raw, mv) = self.next_human_input(&board);
        let legal = mv.is_some_and(|(row, elements)| {
            nim::validate(&as_big(&board), &Move::new(row, elements)).is_ok()
        });
        let mut attempt = Attempt {
            typed,
            raw,
            mv,
            legal,
            row_typed: false,
            elements_typed: false,
            tried: vec![self.format],
            question: text.to_string(),
        };
        match question {
            // A whole move shown by example ("take 3 from row 2") names a row, yet is one line.
            _ if self.format == MoveFormat::Keyed => self.type_whole(attempt, program),
            // Two questions, as far as the wording says: known once a move goes through.
            Question::Row => {
                self.format = MoveFormat::TwoQuestions;
                attempt.tried = vec![MoveFormat::TwoQuestions];
                self.type_part(attempt, true, program)
            }
            Question::Elements => {
                self.format = MoveFormat::TwoQuestions;
                attempt.tried = vec![MoveFormat::TwoQuestions];
                self.type_part(attempt, false, program)
            }
            _ if self.format == MoveFormat::TwoQuestions => self.type_part(attempt, true, program),
            _ => self.type_whole(attempt, program),
        }
    }

    /// A legal move, the same board shown again, and yet the game went on (the next player
    /// is asked, or the computer announces its answer): the board shown is not the game's.
    fn unchanged_board_after(
        &self,
        attempt: &Attempt,
        board: &[u64],
        text: &str,
        lines: &[String],
    ) -> Step {
        if !self.board_since_typed {
            return Ok(());
        }
        let next_asked = self.last_named(text, lines) == Some(1 - self.turn);
        let computer_answered = self.seats[1 - self.turn] == Seat::Computer
            && lines.iter().any(|l| {
                let l = l.to_lowercase();
                display::announced_move(&l).is_some()
                    && has_any(&l, &["computer", "cpu", "ai", "bot"])
                    && !has_any(&l, REFUSAL_WORDS)
            });
        if !(next_asked || computer_answered) {
            return Ok(());
        }
        let (row, elements) = attempt.mv.expect("legal attempts are moves");
        let mut expected = board.to_vec();
        expected[row as usize - 1] -= elements as u64;
        let then = if next_asked {
            format!("and asks {}", self.name(1 - self.turn))
        } else {
            "and the computer answered the move".to_string()
        };
        broken(
            Rule::BoardShown,
            format!(
                "after {}'s move {row}, {elements} on {} the board should be {}, but the program shows it unchanged {then}",
                self.name(self.turn),
                board_text(board),
                board_text(&expected),
            ),
        )
    }

    /// The seat the last line to name one player (and not the other) names: the question,
    /// or else the lines before it ("It is Bob's turn.").
    fn last_named(&self, text: &str, lines: &[String]) -> Option<usize> {
        let names = [self.seat_names[0].as_ref()?, self.seat_names[1].as_ref()?];
        std::iter::once(text)
            .chain(lines.iter().rev().map(String::as_str))
            .find_map(|line| {
                let lower = line.to_lowercase();
                let named: Vec<usize> = (0..2)
                    .filter(|&seat| {
                        !word_positions_of(&lower, &names[seat].to_lowercase()).is_empty()
                    })
                    .collect();
                match named.as_slice() {
                    [seat] => Some(*seat),
                    _ => None,
                }
            })
    }

    /// Whether a legal move typed was taken, judged when the program asks again with no
    /// board between: by a board that always followed moves, a refusal's words, or the same
    /// question repeated without a word.
    fn went_through(&self, attempt: &Attempt, text: &str, lines: &[String]) -> bool {
        if self.board_since_typed {
            return false; // a board was shown and did not change
        }
        let said: Vec<&str> = lines
            .iter()
            .map(String::as_str)
            .chain([text])
            .filter(|l| !l.trim().is_empty())
            .collect();
        let refusal = said
            .iter()
            .any(|l| has_any(&l.to_lowercase(), REFUSAL_WORDS));
        if refusal {
            return false;
        }
        // The next player asked: taken, though no board came between (one drawn per round).
        if self.last_named(text, lines) == Some(1 - self.turn) {
            return true;
        }
        if self.boards_read > 0 && self.boards_follow_moves {
            return false;
        }
        !(text == attempt.question && lines.iter().all(|l| l.trim().is_empty()))
    }

    /// An illegal move was refused (the program asked again): right. Advice if silent.
    fn refused_illegal(&mut self, attempt: &Attempt) -> Step {
        let said_something = self.said_since_typed;
        if !said_something && self.notes.iter().all(|n| !n.contains("without saying why")) {
            let name = self.name(self.turn);
            self.notes.push(format!(
                "after {name} typed `{}`, which is not a legal move, the program asked again without saying why; a short message (which row, how many) helps the player",
                attempt.typed
            ));
        }
        Ok(())
    }

    /// A legal move the program asked again for: perhaps only its form was not understood.
    fn retry_legal(
        &mut self,
        mut attempt: Attempt,
        question: &Question,
        program: &mut dyn Session,
    ) -> Step {
        let name = self.name(self.turn);
        let (row, elements) = attempt.mv.expect("legal attempts are moves");
        let next = FORMATS
            .iter()
            .copied()
            .find(|f| !attempt.tried.contains(f))
            .filter(|_| !self.format_known);
        let Some(format) = next else {
            let forms: Vec<String> = attempt
                .tried
                .iter()
                .map(|f| format!("`{}`", self.shown_as(*f, row, elements)))
                .collect();
            if self.refusal_fits_amount_first(&attempt) {
                // Refused in every form, and illegal read amount first: perhaps that order.
                return self.order_swapped(&attempt, "asked again in every form");
            }
            if !self.format_known {
                // No move went through yet: the form was nimlab's guess, not the program's.
                return self.cannot_drive(format!(
                    "it found no form of a move the program accepts: {name}'s legal move {row}, {elements} was asked again as {}",
                    forms.join(" and as ")
                ));
            }
            return broken(
                Rule::LegalAccepted,
                format!(
                    "{name} typed the legal move {row}, {elements} (as {}), but the program asked again",
                    forms.join(" and as ")
                ),
            );
        };
        self.note(format!(
            "the move was not taken as `{}`; nimlab tries `{}`",
            self.shown_as(*attempt.tried.last().expect("tried once"), row, elements),
            self.shown_as(format, row, elements)
        ));
        self.format = format;
        attempt.tried.push(format);
        attempt.row_typed = false;
        attempt.elements_typed = false;
        attempt.typed = self.shown_as(format, row, elements);
        match (format, question) {
            (MoveFormat::TwoQuestions, Question::Elements) => {
                self.type_part(attempt, false, program)
            }
            (MoveFormat::TwoQuestions, _) => self.type_part(attempt, true, program),
            _ => self.type_whole(attempt, program),
        }
    }

    /// Asked again how many to take from the same row after an illegal number.
    fn elements_again(&mut self, attempt: Attempt, program: &mut dyn Session) -> Step {
        let board = self.board.clone().expect("playing");
        let row = attempt.mv.map_or(0, |(row, _)| row);
        if !attempt.row_is_legal(&board) {
            return broken(
                Rule::IllegalRefused,
                format!(
                    "row {row} cannot be played on {} (no such row, or an empty one), but the program keeps asking how many to take from it",
                    board_text(&board)
                ),
            );
        }
        let size = board[row as usize - 1];
        let scripted = self
            .script
            .front()
            .and_then(|line| script_move(line))
            .filter(|(r, _)| *r == row);
        let elements = match scripted {
            Some((_, e)) => {
                self.script.pop_front();
                e
            }
            None => self.rng.random_range(1..=size) as i64,
        };
        let legal = elements >= 1 && elements as u64 <= size;
        let next = Attempt {
            typed: shown_move(MoveFormat::TwoQuestions, row, elements),
            raw: None,
            mv: Some((row, elements)),
            legal,
            row_typed: true,
            elements_typed: false,
            tried: vec![MoveFormat::TwoQuestions],
            question: attempt.question,
        };
        self.type_part(next, false, program)
    }

    /// A move as typed in `format`: for a form shown by example, as the example shows it.
    fn shown_as(&self, format: MoveFormat, row: i64, elements: i64) -> String {
        match (&self.keys, format) {
            (Some(template), MoveFormat::Keyed) => template.fill(row, elements),
            (_, MoveFormat::TwoQuestions) => shown_move(format, row, elements),
            _ if self.amount_first => shown_move(format, elements, row),
            _ => shown_move(format, row, elements),
        }
    }

    /// Types a whole move on one line.
    fn type_whole(&mut self, mut attempt: Attempt, program: &mut dyn Session) -> Step {
        let line = match (&attempt.raw, attempt.mv) {
            (Some(raw), _) => raw.clone(),
            (None, Some((row, elements))) => {
                let line = self.shown_as(self.format, row, elements);
                attempt.typed = line.clone();
                line
            }
            (None, None) => String::new(),
        };
        attempt.row_typed = true;
        attempt.elements_typed = true;
        self.send(attempt, line, program)
    }

    /// Types one part of a move asked in two questions: the row, or the elements.
    fn type_part(&mut self, mut attempt: Attempt, row: bool, program: &mut dyn Session) -> Step {
        let line = match (&attempt.raw, attempt.mv) {
            (Some(raw), _) => raw.clone(),
            (None, Some((r, e))) => {
                if row {
                    r.to_string()
                } else {
                    e.to_string()
                }
            }
            (None, None) => String::new(),
        };
        if row {
            attempt.row_typed = true;
        } else {
            attempt.elements_typed = true;
        }
        if attempt.raw.is_some() && attempt.complete() {
            // Text that is no move answered the first question; the second gets a number.
            return self.type_raw_second_part(attempt, program);
        }
        if let Some((r, e)) = attempt.mv {
            attempt.typed = shown_move(MoveFormat::TwoQuestions, r, e);
        }
        self.send(attempt, line, program)
    }

    /// The second question after text that is no move: a plain number, so that the program
    /// can get to refusing the move.
    fn type_raw_second_part(&mut self, attempt: Attempt, program: &mut dyn Session) -> Step {
        self.send(attempt, "1".into(), program)
    }

    /// Types a line for a human's move and keeps the attempt to see what it did.
    fn send(&mut self, attempt: Attempt, line: String, program: &mut dyn Session) -> Step {
        let (is_move, legal) = (attempt.mv.is_some(), attempt.legal);
        self.attempt = Some(attempt);
        self.passed_after_illegal = None;
        self.type_line(&line, program)?;
        self.last_typed = Some(Typed::Move {
            text: line,
            is_move,
            legal,
        });
        Ok(())
    }

    /// Where the question names one player and not the other, it must name the player to
    /// move.
    fn check_prompt_names(&mut self, prompt: &str) -> Step {
        let [Some(first), Some(second)] = self.seat_names.clone() else {
            return Ok(());
        };
        let lower = prompt.to_lowercase();
        let names = |n: &str| lower.contains(&n.to_lowercase());
        if self.moves == 0 && names(&second) && !names(&first) {
            // The program lets the second player start: its choice. Seats follow the names.
            self.seat_names = [Some(second), Some(first)];
            self.seats.swap(0, 1);
            return Ok(());
        }
        let (right, wrong) = (self.name(self.turn), self.name(1 - self.turn));
        if names(&wrong) && !names(&right) {
            return broken(
                Rule::TurnOrder,
                format!(
                    "it is {right}'s turn, but the program asks {wrong}: `{}`",
                    clipped(prompt.trim())
                ),
            );
        }
        Ok(())
    }

    /// What the human types next: (as shown, raw text if it is no move, the move).
    fn next_human_input(&mut self, board: &[u64]) -> (String, Option<String>, Option<(i64, i64)>) {
        if let Some(line) = self.script.pop_front() {
            return match script_move(&line) {
                Some(mv) => (self.shown_as(self.format, mv.0, mv.1), None, Some(mv)),
                None => (line.clone(), Some(line), None),
            };
        }
        let winning = self.scenario.ending.winning_moves(&as_big(board));
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
        (
            self.shown_as(self.format, row, elements),
            None,
            Some((row, elements)),
        )
    }

    fn type_line(&mut self, line: &str, program: &mut dyn Session) -> Step {
        self.transcript.push(Entry::Typed(line.to_string()));
        self.since_typed.clear();
        self.board_since_typed = false;
        self.said_since_typed = false;
        program.type_line(line).map_err(|e| {
            let why = format!("nimlab could not type to the program: {e}");
            self.lost = Some(why.clone());
            BrokenRule {
                rule: Rule::Ends,
                detail: why,
            }
        })
    }

    /// Was the winner announced, rightly? Judged on the lines printed once the board was
    /// empty.
    fn check_winner(&self) -> Step {
        let Some(winner) = self.winner else {
            return Ok(());
        };
        match announcement(
            &self.after_game,
            &self.aliases(winner),
            &self.aliases(1 - winner),
        ) {
            Announced::Right | Announced::Unnamed => Ok(()),
            Announced::Loser(line) => broken(
                Rule::Winner,
                match self.scenario.ending {
                    nim::Ending::Normal => format!(
                        "{} took the last element, but the program says `{}`",
                        self.name(winner),
                        clipped(line.trim())
                    ),
                    nim::Ending::Misere => format!(
                        "{} took the last element and so lost under misère rules ({} wins), but the program says `{}`",
                        self.name(1 - winner),
                        self.name(winner),
                        clipped(line.trim())
                    ),
                },
            ),
            Announced::Nothing => broken(
                Rule::Winner,
                format!(
                    "the board is empty, but no line announced that {} wins (nimlab looks for a line that names the winner with a word such as wins, won, winner or congratulations)",
                    self.name(winner)
                ),
            ),
        }
    }

    /// The words that name a seat in an announcement: its name, "player N", and for a
    /// computer facing a human, the words for a computer; for that human, "you".
    fn aliases(&self, seat: usize) -> Vec<String> {
        let mut aliases = vec![
            format!("player {}", seat + 1),
            format!("player{}", seat + 1),
            format!("p{}", seat + 1),
        ];
        if let Some(name) = &self.seat_names[seat] {
            aliases.push(name.to_lowercase());
        }
        let against_each_other = self.seats[1 - seat] != self.seats[seat];
        match self.seats[seat] {
            Seat::Computer if against_each_other => {
                aliases.extend(["computer", "cpu", "ai", "bot", "machine", "pc"].map(String::from));
                for p in &self.scenario.players {
                    if Scenario::is_computer(p) {
                        aliases.push(p.to_lowercase());
                    }
                }
            }
            Seat::Human if against_each_other => {
                aliases.push("you".into());
                if let Some(name) = self.human_name() {
                    aliases.push(name.to_lowercase());
                }
            }
            _ => {}
        }
        aliases
    }

    /// The program ended by itself: was the game over, and was it announced?
    fn ended(&mut self) -> Step {
        if self.winner.is_none() {
            self.infer_last_move()?;
        }
        let Some(winner) = self.winner else {
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
            if self.board.is_none() && self.boards_read == 0 && self.printed_lines() > 3 {
                return self
                    .cannot_drive("the program ended without showing a board nimlab could read");
            }
            if self.board.is_none() {
                return broken(Rule::Ends, "the program ended before the game began");
            }
            if self.boards_read == 0 {
                return self.cannot_drive(
                    "the program ended, and nimlab could not follow the game to its end: it could not read the board from the output",
                );
            }
            return broken(Rule::Ends, "the program ended before the game was over");
        };
        self.check_winner()?;
        if self.boards_read == 0 {
            self.notes.push("nimlab could not read a board in the program's output (it looks for present_board's format, or rows numbered from 1 with a count or a symbol per element), so it followed the game by the moves; players need to see the board".into());
        }
        // With perfect computers on both seats, the nim-sum of the first board decides.
        let computers = self.seats.iter().all(|s| *s == Seat::Computer);
        if let (true, Some(initial)) = (computers, &self.initial) {
            let ending = self.scenario.ending;
            let predicted = if ending.mover_wins(&as_big(initial)) {
                0
            } else {
                1
            };
            if winner != predicted {
                let why = match ending {
                    nim::Ending::Normal => format!("has nim-sum {}", nim_sum(initial)),
                    nim::Ending::Misere => format!(
                        "is, under misère rules, a {} for the player to move",
                        if predicted == 0 { "win" } else { "loss" }
                    ),
                };
                return broken(
                    Rule::ComputerOptimal,
                    format!(
                        "the first board {} {why}, so {} should win, but {} did",
                        board_text(initial),
                        self.name(predicted),
                        self.name(winner)
                    ),
                );
            }
        }
        self.modes()
    }

    fn printed_lines(&self) -> usize {
        self.transcript
            .iter()
            .map(|e| match e {
                Entry::Program(text) => text.lines().count(),
                _ => 0,
            })
            .sum()
    }

    /// Rule 1: could the program play this scenario's mode? Judged once the game it did play
    /// is over, by the seats seen.
    fn modes(&self) -> Step {
        let wanted = self.wanted.computers();
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
        if !self.asked_first {
            return broken(
                Rule::Modes,
                format!(
                    "the program fixes its players and board in code (it showed the board {} before asking anything), so it cannot play this scenario's {} ({first} and {second}); it played {} against {}",
                    self.initial.as_deref().map(board_text).unwrap_or_default(),
                    self.wanted.describe(),
                    seat(0),
                    seat(1),
                ),
            );
        }
        broken(
            Rule::Modes,
            format!(
                "nimlab answered the program's questions for {} ({first} and {second}), but it played {} against {}",
                self.wanted.describe(),
                seat(0),
                seat(1),
            ),
        )
    }
}

/// Texts quoted for a message: "`1`, `2`".
fn quoted(texts: &[String]) -> String {
    let quoted: Vec<String> = texts.iter().map(|t| format!("`{}`", clipped(t))).collect();
    quoted.join(", ")
}

/// At most 200 characters of a program's text, for a message that quotes it.
fn clipped(text: &str) -> String {
    const MOST: usize = 200;
    match text.char_indices().nth(MOST) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text.to_string(),
    }
}

/// Output with each carriage return that ends a line ("\r\n", or "\r" at the end of what was
/// read) taken out.
fn unix_line_ends(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\r' && bytes.get(i + 1).is_none_or(|next| *next == b'\n') {
            continue;
        }
        out.push(b);
    }
    out
}

/// A move in a scenario's script ("3 2"), or None for text that is no move.
fn script_move(line: &str) -> Option<(i64, i64)> {
    let numbers: Vec<i64> = line
        .split_whitespace()
        .filter_map(|w| w.parse().ok())
        .collect();
    match numbers.as_slice() {
        [row, elements] if line.split_whitespace().count() == 2 => Some((*row, *elements)),
        _ => None,
    }
}

/// The parts of a move as the question names them in brackets, `(amount row)`, `<row,
/// count>`: whether the amount comes first, and the form their separator shows.
fn parts_named(question: &str) -> Option<(bool, MoveFormat)> {
    static PARTS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)[(\[<]\s*([a-z]+)\s*([,/-]|\s)\s*([a-z]+)\s*[)\]>]")
            .expect("valid pattern")
    });
    const ROWS: &[&str] = &["row", "heap", "pile", "line", "stack", "r"];
    const AMOUNTS: &[&str] = &[
        "amount", "count", "number", "elements", "items", "sticks", "n", "how", "many", "take",
        "quantity",
    ];
    let parts = PARTS.captures(question)?;
    let (a, b) = (parts[1].to_lowercase(), parts[3].to_lowercase());
    let amount_first = if AMOUNTS.contains(&a.as_str()) && ROWS.contains(&b.as_str()) {
        true
    } else if ROWS.contains(&a.as_str()) && AMOUNTS.contains(&b.as_str()) {
        false
    } else {
        return None;
    };
    let format = match parts[2].trim() {
        "," => MoveFormat::Comma,
        "/" => MoveFormat::Slash,
        "-" => MoveFormat::Dash,
        _ => MoveFormat::Space,
    };
    Some((amount_first, format))
}

/// The form of a move a question shows by example or says in words.
fn format_hinted(question: &str) -> Option<MoveFormat> {
    let lower = question.to_lowercase();
    let bytes: Vec<char> = lower.chars().collect();
    for window in bytes.windows(3) {
        if window[0].is_ascii_digit() && window[2].is_ascii_digit() {
            match window[1] {
                ',' => return Some(MoveFormat::Comma),
                ' ' => return Some(MoveFormat::Space),
                '-' => return Some(MoveFormat::Dash),
                '/' => return Some(MoveFormat::Slash),
                ':' => return Some(MoveFormat::Colon),
                _ => {}
            }
        }
    }
    if lower.contains("comma") || lower.contains("row, ") {
        return Some(MoveFormat::Comma);
    }
    if lower.contains("space") || lower.contains("row elements") || lower.contains("row amount") {
        return Some(MoveFormat::Space);
    }
    if lower.contains("row-") {
        return Some(MoveFormat::Dash);
    }
    // "(row:count)": the parts' names around a colon.
    let named_colon = lower.match_indices(':').any(|(at, _)| {
        let before = lower[..at].chars().next_back();
        let after = lower[at + 1..].chars().next();
        before.is_some_and(char::is_alphabetic) && after.is_some_and(char::is_alphabetic)
    });
    if named_colon && has_any(&lower, &["row", "heap", "pile"]) {
        return Some(MoveFormat::Colon);
    }
    None
}

/// A move's form as the question shows it by example: the text around its two numbers, and
/// whether the row comes first.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Template {
    parts: [String; 3],
    row_first: bool,
}

impl Template {
    fn fill(&self, row: i64, elements: i64) -> String {
        let (a, b) = if self.row_first {
            (row, elements)
        } else {
            (elements, row)
        };
        let [before, between, after] = &self.parts;
        format!("{before}{a}{between}{b}{after}")
    }
}

/// The form of a move where the question shows it with its parts named, `row=R count=N`, or
/// by an example in words in quotes, `"take 3 from row 2"` (the row is the number after a
/// word for a row).
fn keyed_hinted(question: &str) -> Option<Template> {
    static KEYED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"([A-Za-z]+)\s*=\s*[A-Za-z0-9]{1,2}[\s,;]+([A-Za-z]+)\s*=\s*[A-Za-z0-9]{1,2}\b")
            .expect("valid pattern")
    });
    // In quotes, or after "e.g." / "for example" up to a bracket, a quote or the end.
    static WORDED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?i)(?:["“]|(?:e\.g\.|for example|example|like)\s*:?\s*)([a-z][a-z ]*?)(\d{1,2})([a-z ]*[a-z][a-z ]*?)(\d{1,2})([a-z ]*?)\s*(?:["”'):]|$)"#)
            .expect("valid pattern")
    });
    static ROW_BEFORE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\b(?:row|heap|pile|line|stack|column)\s*$").expect("valid pattern")
    });
    if let Some(found) = KEYED.captures(question) {
        return Some(Template {
            parts: [
                format!("{}=", &found[1]),
                format!(" {}=", &found[2]),
                String::new(),
            ],
            row_first: true,
        });
    }
    let found = WORDED.captures(question)?;
    let (before, between) = (&found[1], &found[3]);
    let row_first = match (ROW_BEFORE.is_match(before), ROW_BEFORE.is_match(between)) {
        (true, false) => true,
        (false, true) => false,
        _ => return None,
    };
    Some(Template {
        parts: [
            before.to_string(),
            between.to_string(),
            found[5].to_string(),
        ],
        row_first,
    })
}

/// What the lines after the game say about its winner.
#[derive(Debug, PartialEq, Eq)]
enum Announced {
    /// A line names the winner as winning (or the loser as losing).
    Right,
    /// A line with a word of winning names no player nimlab knows a name for.
    Unnamed,
    /// The line names the loser as the winner.
    Loser(String),
    Nothing,
}

/// Reads the announcement: for each line with a word of winning or losing (and the line
/// after, for "The winner is:" then the name), the player named nearest that word.
fn announcement(lines: &[String], winner: &[String], loser: &[String]) -> Announced {
    let mut result = Announced::Nothing;
    for (i, line) in lines.iter().enumerate() {
        let lower = line.to_lowercase();
        let win = word_positions(&lower, WIN_WORDS);
        let lose = word_positions(&lower, LOSE_WORDS);
        if win.is_empty() && lose.is_empty() {
            continue;
        }
        let window = match lines.get(i + 1) {
            Some(next)
                if win
                    .iter()
                    .chain(&lose)
                    .all(|&(at, _)| at + 12 >= lower.len()) =>
            {
                format!("{lower} {}", next.to_lowercase())
            }
            _ => lower.clone(),
        };
        // "Well played Computer - you win!": a line that names a player speaks to them, so
        // its "you" is that player.
        let mentions = |aliases: &[String], you: bool| -> Vec<usize> {
            aliases
                .iter()
                .filter(|a| you || a.as_str() != "you")
                .flat_map(|a| word_positions_of(&window, a))
                .collect()
        };
        let (mut w, mut l) = (mentions(winner, false), mentions(loser, false));
        if w.is_empty() && l.is_empty() {
            (w, l) = (mentions(winner, true), mentions(loser, true));
        }
        if w.is_empty() && l.is_empty() {
            if !win.is_empty() && result == Announced::Nothing {
                result = Announced::Unnamed;
            }
            continue;
        }
        let nearest = |at: usize| {
            let dw = w
                .iter()
                .map(|&p| p.abs_diff(at))
                .min()
                .unwrap_or(usize::MAX);
            let dl = l
                .iter()
                .map(|&p| p.abs_diff(at))
                .min()
                .unwrap_or(usize::MAX);
            dw <= dl
        };
        let right = match (win.first(), lose.first()) {
            (Some(&(at, _)), _) => nearest(at),
            (None, Some(&(at, _))) => !nearest(at),
            (None, None) => unreachable!("a word was found"),
        };
        if right {
            return Announced::Right;
        }
        if result != Announced::Right {
            result = Announced::Loser(line.clone());
        }
    }
    result
}

/// Where words of a list start in a text (whole words only), with the word.
fn word_positions<'w>(text: &str, words: &[&'w str]) -> Vec<(usize, &'w str)> {
    let mut found = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
        if c.is_alphanumeric() {
            start.get_or_insert(i);
        } else if let Some(s) = start.take()
            && let Some(w) = words.iter().find(|w| **w == &text[s..i])
        {
            found.push((s, *w));
        }
    }
    found
}

/// Where a name (one or more words) appears in a text as whole words.
fn word_positions_of(text: &str, name: &str) -> Vec<usize> {
    if name.is_empty() {
        return Vec::new();
    }
    text.match_indices(name)
        .filter(|(at, _)| {
            let before = text[..*at].chars().next_back();
            let after = text[at + name.len()..].chars().next();
            before.is_none_or(|c| !c.is_alphanumeric())
                && after.is_none_or(|c| !c.is_alphanumeric())
        })
        .map(|(at, _)| at)
        .collect()
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
                crate::traceback::traceback_summary(&end.stderr)
                    .unwrap_or_else(|| format!("the program exited with status {code}")),
            ),
            Termination::Signaled(signal) => {
                crashed(format!("the program was killed by signal {signal}"))
            }
        },
        Err(e) => crashed(format!("nimlab lost the program: {e}")),
    }
}

/// How a game ended for the verdict: the verdict, the rule broken, and what to say.
struct Outcome {
    verdict: Verdict,
    broken: Option<BrokenRule>,
    message: String,
}

impl Outcome {
    fn new(verdict: Verdict, message: impl Into<String>) -> Outcome {
        Outcome {
            verdict,
            broken: None,
            message: message.into(),
        }
    }

    fn broke(rule: BrokenRule) -> Outcome {
        Outcome {
            verdict: Verdict::WrongAnswer,
            broken: Some(rule),
            message: String::new(),
        }
    }
}

impl Referee<'_> {
    /// Each pause the judge answers at most once; a game cannot need more than this. A
    /// program with its own board plays that board, so the bound follows the board in play.
    fn most_pauses(&self) -> usize {
        let elements = self
            .initial
            .as_deref()
            .unwrap_or(&self.scenario.board)
            .iter()
            .sum::<u64>()
            .max(self.scenario.board.iter().sum());
        30 + self.scenario.script.len() * 8 + elements as usize * 6
    }

    /// Plays the game to its end: each pause read and answered, until a rule is broken, the
    /// program ends, stalls or prints too much, or the game goes on too long.
    fn referee_game(&mut self, program: &mut dyn Session) -> Outcome {
        let mut pauses = 0;
        while pauses < self.most_pauses() {
            pauses += 1;
            // Colours and cursor moves are read through, as a player at a terminal sees them,
            // and Windows' line ends ("\r\n") as line ends.
            let resumed = program.resume().map(|(pause, bytes)| {
                let shown = crate::printed::printable(&bytes);
                let read = crate::printed::without_escape_sequences(&bytes);
                (
                    pause,
                    shown,
                    crate::printed::printable(&unix_line_ends(&read)),
                )
            });
            let (pause, shown, text) = match resumed {
                Ok(step) => step,
                Err(e) => {
                    return Outcome::new(
                        Verdict::JudgeError,
                        format!("nimlab lost the program: {e}"),
                    );
                }
            };
            let prompt = text.rsplit('\n').next().unwrap_or("").to_string();
            let step = self.read(&shown, &text).and_then(|()| match pause {
                Pause::Waiting => self.waiting(&prompt, program),
                _ => Ok(()),
            });
            if let Err(rule) = step {
                return self.stopped(rule, pause, program);
            }
            match pause {
                Pause::Waiting => {}
                Pause::Exited => return self.exited(program),
                Pause::TimedOut => return self.stalled(),
                Pause::OutputLimit => {
                    return Outcome::new(
                        Verdict::OutputLimit,
                        "the program printed more than the output limit",
                    );
                }
            }
        }
        Outcome::broke(BrokenRule {
            rule: Rule::Ends,
            detail: "the game went on far longer than its board allows".into(),
        })
    }

    /// The game stopped at a broken rule: the rule, unless nimlab lost the program, the
    /// program crashed, or nimlab could not drive it.
    fn stopped(&mut self, rule: BrokenRule, pause: Pause, program: &mut dyn Session) -> Outcome {
        if let Some(why) = self.lost.take() {
            return Outcome::new(Verdict::JudgeError, why);
        }
        // A crash explains a broken rule better than the rule does (a traceback).
        let end = (pause == Pause::Exited).then(|| ending(program));
        if let Some(Ending {
            crashed: true,
            crash_summary,
        }) = end
        {
            Outcome::new(Verdict::RuntimeError, crash_summary.unwrap_or_default())
        } else if let Some(why) = self.undriven.take() {
            Outcome::new(Verdict::NotJudged, why)
        } else {
            Outcome::broke(rule)
        }
    }

    /// The program ended: a crash, or a game that must be over.
    fn exited(&mut self, program: &mut dyn Session) -> Outcome {
        let end = ending(program);
        if end.crashed {
            return Outcome::new(Verdict::RuntimeError, end.crash_summary.unwrap_or_default());
        }
        match self.ended() {
            Ok(()) => Outcome::new(Verdict::Accepted, String::new()),
            Err(_) if self.undriven.is_some() => {
                Outcome::new(Verdict::NotJudged, self.undriven.take().unwrap_or_default())
            }
            Err(rule) => Outcome::broke(rule),
        }
    }

    /// The program neither asked for input nor ended in time.
    fn stalled(&self) -> Outcome {
        let why = if self.winner.is_some() {
            "the game was over, but the program did not end"
        } else {
            "the program stalled: it neither asked for input nor ended"
        };
        Outcome::new(Verdict::TimeLimit, why)
    }

    /// The game's result: its transcript (cut to its start where that is the evidence) ends
    /// with the broken rule or why nimlab could not play, and the message says the same.
    fn result(mut self, outcome: Outcome) -> GameResult {
        let Outcome {
            verdict,
            broken,
            message,
        } = outcome;
        if broken.as_ref().is_some_and(|b| b.rule == Rule::Modes) && !self.asked_first {
            self.keep_only_the_start();
        }
        let message = match &broken {
            Some(b) => {
                let said = format!("{}: {}", b.rule.describe(), b.detail);
                self.transcript.push(Entry::Broken(said.clone()));
                said
            }
            None if verdict == Verdict::NotJudged => {
                let why = self.not_judged(&message);
                self.transcript.push(Entry::Judge(why.clone()));
                why
            }
            // An accepted game says what the lab's rules advise besides.
            None if verdict == Verdict::Accepted && !self.notes.is_empty() => {
                format!("accepted; a suggestion: {}", self.notes.join("; "))
            }
            None => message,
        };
        GameResult {
            verdict,
            broken,
            message,
            transcript: self.transcript,
            moves: self.moves,
            notes: self.notes,
            last_typed: self.last_typed,
            questions: self.questions,
            ending: self.scenario.ending,
            replay: self.replay,
        }
    }

    /// The game played is not the scenario's: its start is the evidence (a board shown before
    /// any question), the rest would only bury it.
    fn keep_only_the_start(&mut self) {
        let first_typed = self
            .transcript
            .iter()
            .position(|e| matches!(e, Entry::Typed(_)))
            .map_or(self.transcript.len(), |at| at + 1);
        self.transcript.truncate(first_typed);
    }

    /// Why nimlab could not play the game, with the questions the program asked.
    fn not_judged(&self, why: &str) -> String {
        let asked = if self.questions.is_empty() {
            String::new()
        } else {
            let quoted: Vec<String> = self.questions.iter().map(|q| format!("`{q}`")).collect();
            format!(" The program asked: {}.", quoted.join(", "))
        };
        format!(
            "nimlab could not find out how to play this game: {why}.{asked} An instructor can give the answers in the exercise's exercise.toml (`[[answers]]`)."
        )
    }
}

/// Plays `scenario` against `program`, checking every rule as the game goes.
pub fn play(scenario: &Scenario, program: &mut dyn Session) -> GameResult {
    let mut referee = Referee::new(scenario);
    let outcome = referee.referee_game(program);
    let outcome = referee.weigh_guesses(outcome);
    referee.result(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winners_are_read_in_many_wordings() {
        let lines = |t: &str| t.lines().map(str::to_string).collect::<Vec<_>>();
        let ada = vec!["ada".to_string(), "player 1".into()];
        let bob = vec!["bob".to_string(), "player 2".into()];
        for right in [
            "Ada wins",
            "The winner is: Ada",
            "Congratulations Ada, you won the game!",
            "Ada is the champion!",
            "The winner is:\nAda",
            "Game over.\nVictory for Ada",
            "Bob loses!",
            "Player 1 wins",
        ] {
            assert_eq!(
                announcement(&lines(right), &ada, &bob),
                Announced::Right,
                "{right}"
            );
        }
        assert_eq!(
            announcement(&lines("Bob wins"), &ada, &bob),
            Announced::Loser("Bob wins".into())
        );
        assert_eq!(
            announcement(&lines("Game over"), &ada, &bob),
            Announced::Nothing
        );
        let you = vec!["you".to_string(), "ada".into()];
        let computer = vec!["computer".to_string(), "cpu".into()];
        assert_eq!(
            announcement(&lines("You win!"), &you, &computer),
            Announced::Right
        );
        assert_eq!(
            announcement(&lines("You lost! The computer wins."), &computer, &you),
            Announced::Right
        );
    }

    #[test]
    fn refusals_with_apostrophes_are_read_straight_or_typographic() {
        for line in [
            "you can't take 9 from row 2",
            "row 4 doesn't exist.",
            "that isn\u{2019}t a move i understand",
            "you don\u{2019}t have that many",
            "that won't work",
        ] {
            assert!(has_any(line, REFUSAL_WORDS), "{line}");
        }
        for line in ["the computer takes 2 from row 3", "ada's turn", "canteen t"] {
            assert!(!has_any(line, REFUSAL_WORDS), "{line}");
        }
        // Words beside an apostrophe are still words.
        assert!(has_any("ada's the winner", WIN_WORDS));
        assert!(has_any("'win' for ada", WIN_WORDS));
        assert!(has_any("the computer's move", &["computer"]));
    }

    #[test]
    fn the_form_of_a_move_is_read_from_the_question() {
        assert_eq!(
            format_hinted("Your move (e.g. 3 2): "),
            Some(MoveFormat::Space)
        );
        assert_eq!(
            format_hinted("Your move (row, elements): "),
            Some(MoveFormat::Comma)
        );
        assert_eq!(
            format_hinted("Move as row-elements: "),
            Some(MoveFormat::Dash)
        );
        assert_eq!(format_hinted("Ada: "), None);
        assert_eq!(
            format_hinted("Your move, e.g. 2/3 (row/count): "),
            Some(MoveFormat::Slash)
        );
        assert_eq!(
            keyed_hinted("Ada, your move (row=R count=N): ").map(|t| t.fill(2, 3)),
            Some("row=2 count=3".into())
        );
        assert_eq!(
            keyed_hinted(r#"Ada, your move (e.g. "take 3 from row 2"): "#).map(|t| t.fill(1, 4)),
            Some("take 4 from row 1".into())
        );
        assert_eq!(
            keyed_hinted("Ada, your move (for example: take 3 from row 2): ").map(|t| t.fill(1, 4)),
            Some("take 4 from row 1".into())
        );
        assert_eq!(
            keyed_hinted("Your move, e.g. row 2 take 3: ").map(|t| t.fill(1, 4)),
            Some("row 1 take 4".into())
        );
        assert_eq!(format_hinted("Ada (row:count): "), Some(MoveFormat::Colon));
        assert_eq!(keyed_hinted("Ada, your move (row count): "), None);
    }

    #[test]
    fn forms_the_program_crashed_on_are_not_tried_first_again() {
        assert_eq!(first_format(&[]), MoveFormat::Comma);
        assert_eq!(first_format(&["3, 2".into()]), MoveFormat::Space);
        assert_eq!(
            first_format(&["3, 2".into(), "3 2".into()]),
            MoveFormat::Dash
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
