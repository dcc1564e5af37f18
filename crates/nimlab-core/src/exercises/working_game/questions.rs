//! What a game asks, read from its words: the referee answers by the kind of question, so a
//! game may ask for names, a mode from a menu, yes or no, a board, or a move in one line or
//! two, in whatever order and wording it likes.

use regex::Regex;
use std::sync::LazyLock;

/// The three scenarios of the lab's first rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    HumanVsHuman,
    HumanVsComputer,
    ComputerVsComputer,
}

impl Mode {
    pub fn from_computers(computers: usize) -> Mode {
        match computers {
            0 => Mode::HumanVsHuman,
            1 => Mode::HumanVsComputer,
            _ => Mode::ComputerVsComputer,
        }
    }

    pub fn computers(self) -> usize {
        match self {
            Mode::HumanVsHuman => 0,
            Mode::HumanVsComputer => 1,
            Mode::ComputerVsComputer => 2,
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Mode::HumanVsHuman => "human against human",
            Mode::HumanVsComputer => "human against computer",
            Mode::ComputerVsComputer => "computer against computer",
        }
    }
}

/// A choice a menu offers: what to type, and what the judge made of its label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    pub answer: String,
    pub label: String,
    pub means: Meaning,
}

/// What a menu choice stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Meaning {
    Mode(Mode),
    /// Who moves first: a human or a computer (or a seat by number).
    First(Kind),
    /// Leave the program, read the rules and the like: never chosen (but to leave once the
    /// game is over).
    Other,
    /// "New game", "Play", "Start": a main menu's way into a game, whose mode comes next.
    Play,
    Unknown,
}

/// A human or a computer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Human,
    Computer,
}

/// What a yes-or-no question is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topic {
    /// "Is player 2 a computer?", "Play against the computer?": `seat` when it names one;
    /// `both` when it asks about computers on both sides.
    Computer {
        seat: Option<usize>,
        both: bool,
    },
    /// "Is player 1 a human?", "Two players?": `seat` when it names one.
    Human {
        seat: Option<usize>,
    },
    /// "Do you want to go first?" (`computer`: "Should the computer start?").
    GoFirst {
        computer: bool,
    },
    /// "Play again?": no.
    Again,
    /// "Show the rules?": no.
    Rules,
    /// "Are you sure?", "Ready?": yes.
    Confirm,
    Unknown,
}

/// A question the program asks, by what it wants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Question {
    /// A player's name (`seat` when the question says which).
    Name {
        seat: Option<usize>,
    },
    Menu(Vec<Choice>),
    YesNo {
        topic: Topic,
        yes: String,
        no: String,
    },
    /// "Is player 1 a human or a computer? (h/c)".
    Kind {
        seat: Option<usize>,
        human: String,
        computer: String,
    },
    /// The board's sizes on one line; `commas` when it asks for commas.
    Board {
        commas: bool,
    },
    RowCount,
    /// The size of one row, by number from 1 (None: the next one).
    RowSize(Option<usize>),
    /// A whole move on one line.
    Move,
    /// Only the row of a move.
    Row,
    /// Only how many elements to take.
    Elements,
    /// "How many human players?": the mode as a number of humans.
    HumanCount,
    /// "How many computers? (0, 1 or 2)": the mode as a number of computers.
    ComputerCount,
    /// "Press Enter to continue".
    Continue,
    /// "Seed for the board": a number the program makes its board from; any will do, and the
    /// board is then read from what the program draws.
    Seed,
    Unknown,
}

impl Question {
    /// Asked only before the game: the mode, the seats, the names, the board.
    pub fn before_the_game(&self) -> bool {
        matches!(
            self,
            Question::Name { .. }
                | Question::HumanCount
                | Question::ComputerCount
                | Question::Menu(_)
                | Question::Kind { .. }
                | Question::Board { .. }
                | Question::RowCount
                | Question::RowSize(_)
                | Question::Seed
        )
    }
}

/// The text of a question: the prompt where there is one, else the last line printed.
pub fn question_text<'a>(lines: &'a [String], prompt: &'a str) -> &'a str {
    if !prompt.trim().is_empty() {
        return prompt;
    }
    lines
        .iter()
        .rev()
        .find(|l| !l.trim().is_empty())
        .map_or("", String::as_str)
}

/// A prompt with no word in it: `>>> `, `> `, `: `.
pub fn bare(prompt: &str) -> bool {
    !prompt.chars().any(char::is_alphanumeric)
}

fn has_word(text: &str, words: &[&str]) -> bool {
    text.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .any(|w| words.contains(&w))
}

const COMPUTER_WORDS: &[&str] = &[
    "computer",
    "computers",
    "cpu",
    "ai",
    "bot",
    "bots",
    "machine",
    "pc",
    "npc",
    "robot",
    "com",
];
const HUMAN_WORDS: &[&str] = &[
    "human", "humans", "player", "players", "person", "people", "you", "me", "friend", "user",
    "man", "p1", "p2",
];
const ROW_WORDS: &[&str] = &[
    "row", "rows", "heap", "heaps", "pile", "piles", "line", "stack", "stacks", "column", "columns",
];
const ELEMENT_WORDS: &[&str] = &[
    "elements", "element", "items", "item", "sticks", "stick", "matches", "stones", "stone",
    "coins", "coin", "pieces", "piece", "objects", "tokens", "counters", "amount", "quantity",
    "number", "much", "count", "many",
];

/// Which seat a question names: "player 1", "first player", "player two", "P2".
pub fn seat_named(text: &str) -> Option<usize> {
    static SEAT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\b(?:player|p)\s*#?\s*(1|2|one|two)\b|\b(first|second|1st|2nd)\s+player\b|\bplayer\s+(one|two)\b|\bopponent\b")
            .expect("valid pattern")
    });
    let captures = SEAT.captures(text)?;
    let word = captures
        .iter()
        .skip(1)
        .flatten()
        .next()
        .map_or("opponent", |m| m.as_str())
        .to_lowercase();
    Some(match word.as_str() {
        "1" | "one" | "first" | "1st" => 0,
        _ => 1,
    })
}

/// The word a name question offers for seating the computer: "(a name, or cpu for the
/// computer)", "type 'AI' for a computer player", "computer = bot".
pub fn computer_word(text: &str) -> Option<String> {
    static FOR: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?i)['"]?([a-z][a-z0-9_-]{0,11})['"]?\s+(?:for|=|means|to\s+seat|to\s+get)\s+(?:a\s+|the\s+)?(?:computer|cpu|ai|bot)\b"#)
            .expect("valid pattern")
    });
    static NAMED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"(?i)\b(?:computer|cpu)\s*[=:]\s*['"]?([a-z][a-z0-9_-]{0,11})\b"#)
            .expect("valid pattern")
    });
    let word = FOR
        .captures(text)
        .or_else(|| NAMED.captures(text))
        .map(|c| c[1].to_string())?;
    let filler = [
        "a", "or", "and", "name", "type", "enter", "just", "write", "the", "player",
    ];
    (!filler.contains(&word.to_lowercase().as_str())).then_some(word)
}

/// The answers a question offers in brackets: "(y/n)", "[h/c]", "(1-3)", "(yes or no)".
fn offered(text: &str) -> Vec<String> {
    static BRACKETS: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"[(\[{]([^()\[\]{}]{1,40})[)\]}]").expect("valid pattern"));
    static SLASHED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\b([a-z0-9]{1,8}(?:\s*/\s*[a-z0-9]{1,8})+)\b").expect("valid pattern")
    });
    // "(h)uman or (c)omputer": the bracketed letters are the answers.
    static LETTERED: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"[(\[]([a-zA-Z])[)\]][a-zA-Z]+").expect("valid pattern"));
    let letters: Vec<String> = LETTERED
        .captures_iter(text)
        .map(|c| c[1].to_string())
        .collect();
    if letters.len() >= 2 {
        return letters;
    }
    for inside in BRACKETS.captures_iter(text) {
        let inside = &inside[1];
        let parts: Vec<String> = inside
            .split(['/', ',', '|'])
            .flat_map(|p| p.split(" or "))
            .map(|p| p.trim().trim_matches(['\'', '"']).to_string())
            .filter(|p| !p.is_empty())
            .collect();
        if parts.len() >= 2 && parts.iter().all(|p| p.len() <= 12) {
            return parts;
        }
    }
    if let Some(c) = SLASHED.captures(text) {
        return c[1].split('/').map(|p| p.trim().to_string()).collect();
    }
    Vec::new()
}

/// Two kinds joined by a hyphen: "human-computer".
fn hyphened_sides(text: &str) -> Option<Mode> {
    let (a, b) = text.trim().split_once('-')?;
    let kind = |w: &str| {
        let w = w.trim();
        if COMPUTER_WORDS.contains(&w) {
            Some(Kind::Computer)
        } else if HUMAN_WORDS.contains(&w) {
            Some(Kind::Human)
        } else {
            None
        }
    };
    let computers = [kind(a)?, kind(b)?]
        .iter()
        .filter(|k| **k == Kind::Computer)
        .count();
    Some(Mode::from_computers(computers))
}

/// Two sides: "Human vs Computer", "Player against AI", "You and a friend".
fn two_sides(text: &str) -> Option<Mode> {
    static SIDES: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?i)\s+(?:vs\.?|versus|v\.?|against|and|with)\s+|\s*/\s*|\s+-\s+")
            .expect("valid pattern")
    });
    let sides: Vec<&str> = SIDES.split(text).collect();
    if sides.len() != 2 {
        return None;
    }
    let kind = |side: &str| {
        if has_word(side, COMPUTER_WORDS) {
            Some(Kind::Computer)
        } else if has_word(side, HUMAN_WORDS) || has_word(side, &["a", "another"]) {
            Some(Kind::Human)
        } else {
            None
        }
    };
    let b = kind(sides[1])?;
    // "Play against the computer": the first side is the player.
    let a = kind(sides[0]).unwrap_or(Kind::Human);
    let computers = [a, b].iter().filter(|k| **k == Kind::Computer).count();
    Some(Mode::from_computers(computers))
}

/// What a menu choice's label means.
pub fn meaning(label: &str) -> Meaning {
    let lower = label.to_lowercase();
    let text = lower.as_str();
    if has_word(
        text,
        &[
            "quit",
            "exit",
            "leave",
            "rules",
            "help",
            "instructions",
            "about",
            "settings",
        ],
    ) {
        return Meaning::Other;
    }
    // A number alone ("2" of "(0, 1 or 2)") says nothing of a mode.
    if !text.chars().any(char::is_alphabetic) {
        return Meaning::Unknown;
    }
    if let Some(mode) = hyphened_sides(text) {
        return Meaning::Mode(mode);
    }
    let compact: String = text.chars().filter(|c| c.is_alphanumeric()).collect();
    match compact.as_str() {
        "hh" | "hvh" | "pvp" | "hvsh" => return Meaning::Mode(Mode::HumanVsHuman),
        "hc" | "hvc" | "pvc" | "pve" | "hvsc" | "pvai" | "hvai" => {
            return Meaning::Mode(Mode::HumanVsComputer);
        }
        "cc" | "cvc" | "eve" | "cvsc" | "aivai" => return Meaning::Mode(Mode::ComputerVsComputer),
        _ => {}
    }
    if let Some(mode) = two_sides(text) {
        return Meaning::Mode(mode);
    }
    let computers = has_word(text, COMPUTER_WORDS);
    let two = has_word(
        text,
        &["two", "2", "both", "multiplayer", "multi", "pvp", "local"],
    ) || text.contains("computers");
    if has_word(
        text,
        &[
            "watch",
            "demo",
            "simulation",
            "simulate",
            "spectate",
            "itself",
        ],
    ) || text.contains("computers")
        || (computers && two)
    {
        return Meaning::Mode(Mode::ComputerVsComputer);
    }
    if computers || has_word(text, &["single", "solo", "one", "1"]) {
        return Meaning::Mode(Mode::HumanVsComputer);
    }
    if two || has_word(text, &["humans", "players", "friend", "people"]) {
        return Meaning::Mode(Mode::HumanVsHuman);
    }
    if has_word(text, &["you", "me", "human", "player", "i"]) {
        return Meaning::First(Kind::Human);
    }
    if has_word(text, &["new", "play", "start", "begin"]) {
        return Meaning::Play;
    }
    Meaning::Unknown
}

/// The choices one line offers: one on a line of its own, several between tabs or in a
/// sentence.
fn line_choices(line: &str) -> Vec<(String, String)> {
    static OWN_LINE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^\s*(?:option\s+)?[(\[]?([1-9]|[a-eA-E])\s*(?:[)\].:=-]|->)\s*(.+?)\s*$")
            .expect("valid pattern")
    });
    // A key in a sentence: "1 for", "2 to", "3)", "4 =", "5:" (each label runs to the next key).
    // Letters need a bracket: "A) two players, B) against the computer", "[b] ...".
    static KEY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i)(?:^|[\s(,;:\[|/])(?:([1-9])(?:\s*[)\]=:-]|\s+for\s|\s+to\s)|([a-e])\s*[)\]])\s*",
        )
        .expect("valid pattern")
    });
    // Any letter as a key in brackets: "P) two players", "[w] watch".
    static LETTER_LINE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^\s*[(\[]?([a-zA-Z])\s*[)\]]\s*(.+?)\s*$").expect("valid pattern")
    });
    // One choice between tabs, semicolons or bars: "1 human-human", the key and the label
    // apart (a letter needs its mark: "b) ...").
    static SEGMENT: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"^\s*[(\[]?(?:([1-9])\s*(?:[)\].:=-]|->)?|([a-zA-Z])\s*(?:[)\].:=-]|->))\s+(.+?)\s*$",
        )
        .expect("valid pattern")
    });
    let segments: Vec<(String, String)> = line
        .split(['\t', ';', '|'])
        .filter_map(|segment| SEGMENT.captures(segment))
        .filter_map(|c| {
            Some((
                c.get(1).or(c.get(2))?.as_str().to_string(),
                c[3].to_string(),
            ))
        })
        .collect();
    if segments.len() >= 2 {
        return segments;
    }
    let keys: Vec<(String, usize, usize)> = KEY
        .captures_iter(line)
        .filter_map(|c| {
            let whole = c.get(0)?;
            let key = c.get(1).or(c.get(2))?.as_str().to_string();
            Some((key, whole.start(), whole.end()))
        })
        .collect();
    // Several keys on one line ("[1] PvP | [2] PvC", "1) ...  2) ..."): one menu.
    if keys.len() < 2
        && let Some(c) = OWN_LINE
            .captures(line)
            .or_else(|| LETTER_LINE.captures(line))
    {
        return vec![(c[1].to_string(), c[2].to_string())];
    }
    let mut choices = Vec::new();
    for (k, (key, _, end)) in keys.iter().enumerate() {
        let until = keys.get(k + 1).map_or(line.len(), |next| next.1);
        let label = line[*end..until]
            .trim()
            .trim_end_matches(|c: char| ",;:(|/".contains(c) || c.is_whitespace());
        let label = label.strip_suffix(" or").unwrap_or(label).trim();
        // "(1-3)" is a range, not a choice; a label needs a word.
        let worded = label.chars().next().is_some_and(|c| !c.is_ascii_digit())
            && label.chars().any(char::is_alphabetic);
        if worded {
            choices.push((key.clone(), label.to_string()));
        }
    }
    choices
}

/// The choices a menu prints: on lines of their own ("1) Human vs Human", "[2] Player vs
/// AI", "3. Computer vs Computer", "1 - ..."), or in one sentence ("1 for two players, 2 to
/// play the computer").
pub fn menu_choices(lines: &[String], prompt: &str) -> Vec<Choice> {
    let mut choices: Vec<(String, String)> = lines
        .iter()
        .map(String::as_str)
        .chain([prompt])
        .flat_map(line_choices)
        .collect();
    // Choices listed as words: "hh, hc or cc", "(pvp/pvc/cvc)".
    if choices.is_empty() {
        let question = question_text(lines, prompt);
        let mut words = offered(question);
        if words.is_empty() {
            static LISTED: LazyLock<Regex> = LazyLock::new(|| {
                Regex::new(r"(?i)([a-z0-9]{1,12}(?:\s*,\s*[a-z0-9]{1,12})*\s*,?\s+or\s+[a-z0-9]{1,12})\W*$")
                    .expect("valid pattern")
            });
            if let Some(c) = LISTED.captures(question) {
                words = c[1]
                    .split([',', ' '])
                    .map(str::trim)
                    .filter(|w| !w.is_empty() && !w.eq_ignore_ascii_case("or"))
                    .map(str::to_string)
                    .collect();
            }
        }
        for word in words {
            choices.push((word.clone(), word));
        }
    }
    if choices.is_empty() {
        choices = ranged_list(lines, question_text(lines, prompt));
    }
    if choices.is_empty() {
        choices = listed_modes(lines);
    }
    // The last run of choices printed, each key once.
    let mut seen = std::collections::BTreeSet::new();
    let mut menu: Vec<Choice> = Vec::new();
    for (answer, label) in choices.into_iter().rev() {
        if !seen.insert(answer.to_lowercase()) {
            break;
        }
        menu.push(Choice {
            means: meaning(&label),
            answer,
            label,
        });
    }
    menu.reverse();
    menu
}

/// Modes listed as words on the last line before the question, without keys or a range
/// ("Choose one: friend, computer, watch"): each word is typed as it is, where every word
/// reads as a different mode.
fn listed_modes(lines: &[String]) -> Vec<(String, String)> {
    let Some(line) = lines.iter().rev().find(|l| !l.trim().is_empty()) else {
        return Vec::new();
    };
    let list = line.rsplit(':').next().unwrap_or(line);
    let words: Vec<&str> = list
        .split([',', '/', '|'])
        .flat_map(|item| item.split(" or "))
        .map(|item| item.trim().trim_end_matches(['.', '?', '!']))
        .filter(|item| !item.is_empty())
        .collect();
    let mut modes: Vec<Mode> = Vec::new();
    for word in &words {
        match meaning(word) {
            Meaning::Mode(mode) if !word.contains(' ') && !modes.contains(&mode) => {
                modes.push(mode)
            }
            _ => return Vec::new(),
        }
    }
    if modes.len() < 2 {
        return Vec::new();
    }
    words
        .into_iter()
        .map(|word| (word.to_string(), word.to_string()))
        .collect()
}

/// Choices listed without keys ("Modes: HvH, HvC, CvC") where the question shows the range
/// of numbers to type ("(1-3)"): the numbers in the list's order, where every item is a mode.
fn ranged_list(lines: &[String], question: &str) -> Vec<(String, String)> {
    static RANGE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\b([0-9])\s*(?:-|to|\.\.)\s*([1-9])\b").expect("valid pattern")
    });
    let Some(range) = RANGE.captures(question) else {
        return Vec::new();
    };
    let (low, high): (usize, usize) = match (range[1].parse(), range[2].parse()) {
        (Ok(low), Ok(high)) if high > low => (low, high),
        _ => return Vec::new(),
    };
    for line in lines.iter().rev() {
        let list = line.rsplit(':').next().unwrap_or(line);
        let items: Vec<&str> = list
            .split([',', '/', '|'])
            .flat_map(|item| item.split(" or "))
            .map(str::trim)
            .filter(|item| !item.is_empty())
            .collect();
        let modes = items
            .iter()
            .all(|item| matches!(meaning(item), Meaning::Mode(_)));
        if items.len() == high - low + 1 && modes {
            return (low..=high)
                .zip(items)
                .map(|(key, item)| (key.to_string(), item.to_string()))
                .collect();
        }
    }
    Vec::new()
}

/// Reads a question. `lines` are the complete lines printed since the judge last typed
/// (boards left out), `prompt` the unfinished line the program waits on; `playing` once the
/// game has started (a board was shown or a move made).
pub fn classify(lines: &[String], prompt: &str, playing: bool) -> Question {
    // A bare prompt (`>>> `, `> `) before the game: the line above it asks the question.
    let prompt = if !playing && bare(prompt) { "" } else { prompt };
    let text = question_text(lines, prompt);
    let lower = text.to_lowercase();
    let l = lower.as_str();
    if asks_to_continue(l) {
        return Question::Continue;
    }
    if let Some(menu) = menu_question(lines, prompt, l) {
        return menu;
    }
    if l.contains("how many human") || l.contains("number of human") || counts_players(l) {
        return Question::HumanCount;
    }
    if l.contains("how many computer") || l.contains("number of computer") {
        return Question::ComputerCount;
    }
    let offered = Offered::read(text);
    if let Some(kind) = kind_question(text, l, &offered) {
        return kind;
    }
    if let Some(yes_no) = yes_no_question(text, l, &offered) {
        return yes_no;
    }
    let words = MoveWords::read(l);
    if asks_a_name(l, &words) {
        return Question::Name {
            seat: seat_named(text),
        };
    }
    if !playing && has_word(l, &["seed"]) {
        return Question::Seed;
    }
    if !playing && let Some(board) = board_question(l, &words) {
        return board;
    }
    move_question(l, &words, playing)
}

/// "Number of players (0, 1 or 2)?", "How many players? (0-2)": players counted from none,
/// so the computers make up the rest; the mode as a number of humans.
fn counts_players(l: &str) -> bool {
    static NONE_TO_TWO: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\b0\s*(?:,\s*1\s*,?\s*(?:or|and)\s*2|-\s*2|\.\.\s*2|/\s*1\s*/\s*2)\b")
            .expect("valid pattern")
    });
    let asks = [
        "how many players",
        "number of players",
        "how many people",
        "how many persons",
    ]
    .iter()
    .any(|w| l.contains(w));
    asks && NONE_TO_TWO.is_match(l)
}

/// "Press Enter to continue", "Hit enter", "Press any key".
fn asks_to_continue(l: &str) -> bool {
    l.contains("press enter")
        || l.contains("press return")
        || l.contains("hit enter")
        || l.contains("press any key")
        || (l.contains("enter") && l.contains("continue"))
}

/// A menu: several choices printed, most of them meaning something. Asked who starts, a
/// choice that names one side means that side moves first.
fn menu_question(lines: &[String], prompt: &str, l: &str) -> Option<Question> {
    let mut menu = menu_choices(lines, prompt);
    if has_word(l, &["first", "start", "starts", "begin", "begins", "goes"]) {
        for choice in &mut menu {
            let label = choice.label.to_lowercase();
            if has_word(&label, COMPUTER_WORDS) && !has_word(&label, HUMAN_WORDS) {
                choice.means = Meaning::First(Kind::Computer);
            } else if has_word(&label, HUMAN_WORDS) || has_word(&label, &["i", "myself"]) {
                choice.means = Meaning::First(Kind::Human);
            }
        }
    }
    let modes = menu
        .iter()
        .filter(|c| matches!(c.means, Meaning::Mode(_)))
        .count();
    let firsts = menu
        .iter()
        .filter(|c| matches!(c.means, Meaning::First(_)))
        .count();
    let asks_who_starts = l.contains("first") || l.contains("start") || l.contains("begin");
    // A main menu: a way into the game, the rest ways out or aside (rules, quit).
    let main_menu = menu.iter().any(|c| c.means == Meaning::Play)
        && menu
            .iter()
            .all(|c| matches!(c.means, Meaning::Play | Meaning::Other));
    let is_menu =
        menu.len() >= 2 && (modes >= 2 || ((modes + firsts) >= 2 && asks_who_starts) || main_menu);
    is_menu.then_some(Question::Menu(menu))
}

/// The answers a question offers in brackets, as printed and in lowercase.
struct Offered {
    answers: Vec<String>,
    lower: Vec<String>,
}

impl Offered {
    fn read(text: &str) -> Offered {
        let answers = offered(text);
        let lower = answers.iter().map(|o| o.to_lowercase()).collect();
        Offered { answers, lower }
    }

    /// The offered answers spelled `a` and `b` (a single letter: the first answer that starts
    /// with it), as printed; None unless both are offered.
    fn pair(&self, a: &str, b: &str) -> Option<(String, String)> {
        let find = |w: &str| {
            self.lower
                .iter()
                .position(|o| o == w || (w.len() == 1 && o.starts_with(w)))
        };
        Some((
            self.answers[find(a)?].clone(),
            self.answers[find(b)?].clone(),
        ))
    }
}

/// "Is player 1 a human or a computer? (h/c)".
fn kind_question(text: &str, l: &str, offered: &Offered) -> Option<Question> {
    if let Some((human, computer)) = offered
        .pair("h", "c")
        .or_else(|| offered.pair("human", "computer"))
        .or_else(|| offered.pair("p", "c"))
        .or_else(|| offered.pair("human", "cpu"))
    {
        return Some(Question::Kind {
            seat: seat_named(text),
            human,
            computer,
        });
    }
    if l.contains("human or") && l.contains("computer") {
        return Some(Question::Kind {
            seat: seat_named(text),
            human: "human".into(),
            computer: "computer".into(),
        });
    }
    None
}

/// A question answered yes or no: it offers them, or it is worded as one ("Do you...?").
fn yes_no_question(text: &str, l: &str, offered: &Offered) -> Option<Question> {
    static ASKS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i)^\s*(?:do|does|would|will|should|shall|is|are|can|want|wanna)\b[^?]*\?\s*$",
        )
        .expect("valid pattern")
    });
    let yes_no = offered.pair("y", "n").or_else(|| offered.pair("yes", "no"));
    if yes_no.is_none() && !ASKS.is_match(text) && !l.contains("yes or no") {
        return None;
    }
    let (yes, no) = yes_no.unwrap_or_else(|| ("y".into(), "n".into()));
    Some(Question::YesNo {
        topic: topic(l, seat_named(text)),
        yes,
        no,
    })
}

/// What a question says of the parts of a move.
struct MoveWords {
    /// It names a row (heap, pile...).
    row: bool,
    /// It names elements, or asks how many.
    elements: bool,
    /// The row it names by number: "row 2", "heap #3".
    numbered_row: Option<usize>,
}

impl MoveWords {
    fn read(l: &str) -> MoveWords {
        static NUMBERED: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r"(?i)\b(?:row|heap|pile|line|stack|column)\s*#?\s*(\d{1,2})\b")
                .expect("valid pattern")
        });
        // "Row number: " asks for the row: its number is no count of elements.
        static ROW_NUMBER: LazyLock<Regex> = LazyLock::new(|| {
            Regex::new(r"(?i)\b(?:row|heap|pile|line|stack|column)\s+number\b|\bnumber\s+of\s+the\s+(?:row|heap|pile)\b")
                .expect("valid pattern")
        });
        let counted = ROW_NUMBER.replace_all(l, "row");
        MoveWords {
            row: has_word(l, ROW_WORDS),
            elements: has_word(&counted, ELEMENT_WORDS) || l.contains("how many"),
            numbered_row: NUMBERED
                .captures(l)
                .and_then(|c| c[1].parse::<usize>().ok()),
        }
    }
}

/// Asks for a name, and not for a move: "make a move Put your name here (row, elements)" asks
/// for a move.
fn asks_a_name(l: &str, words: &MoveWords) -> bool {
    let names_a_move = (words.row && words.elements) || has_word(l, &["move", "turn"]);
    has_word(l, &["name", "called", "names"]) && !names_a_move
}

/// Before the game: the board, whole or a row at a time.
fn board_question(l: &str, words: &MoveWords) -> Option<Question> {
    if l.contains("how many rows")
        || l.contains("how many heaps")
        || l.contains("how many piles")
        || l.contains("number of rows")
        || l.contains("number of heaps")
        || l.contains("number of piles")
    {
        return Some(Question::RowCount);
    }
    if let Some(n) = words.numbered_row {
        return Some(Question::RowSize(Some(n)));
    }
    // "Rows (e.g. 3 4 5): ": an example of a whole board.
    static EXAMPLE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?:e\.g\.|eg|example|like)\s*:?\s*\d{1,2}(?:\s*,\s*|\s+)\d{1,2}(?:(?:\s*,\s*|\s+)\d{1,2})+")
            .expect("valid pattern")
    });
    if has_word(l, &["rows", "heaps", "piles", "stacks"])
        && let Some(example) = EXAMPLE.find(l)
    {
        return Some(Question::Board {
            commas: example.as_str().contains(',') || l.contains("comma"),
        });
    }
    if l.contains("board")
        || l.contains("sizes")
        || (words.row && (l.contains("each") || l.contains("separated")))
    {
        return Some(Question::Board {
            commas: l.contains("comma"),
        });
    }
    if (l.contains("next row") || l.contains("next heap")) && words.elements {
        return Some(Question::RowSize(None));
    }
    None
}

/// A move, whole or in parts; else nothing nimlab can read.
fn move_question(l: &str, words: &MoveWords, playing: bool) -> Question {
    if l.contains("move") && !words.row && !words.elements {
        return Question::Move;
    }
    if words.row && words.elements && words.numbered_row.is_none() {
        return Question::Move;
    }
    if words.elements && (!words.row || words.numbered_row.is_some()) {
        return Question::Elements;
    }
    if words.row {
        return Question::Row;
    }
    // "Take:", "Remove?": only the verb, so only the number to take.
    if has_word(l, &["take", "remove"]) && !has_word(l, &["move", "turn"]) {
        return Question::Elements;
    }
    if playing {
        // "Ada: ", "> ", "Your turn": a move, as the lab's own game asks it.
        return Question::Move;
    }
    Question::Unknown
}

fn topic(l: &str, seat: Option<usize>) -> Topic {
    if has_word(l, &["again", "another", "restart", "replay", "rematch"]) || l.contains("new game")
    {
        return Topic::Again;
    }
    if has_word(
        l,
        &[
            "rules",
            "instructions",
            "tutorial",
            "help",
            "explain",
            "explanation",
        ],
    ) {
        return Topic::Rules;
    }
    let computer = has_word(l, COMPUTER_WORDS);
    if has_word(l, &["first", "start", "begin", "starts", "begins"]) {
        return Topic::GoFirst { computer };
    }
    if computer {
        let both = has_word(l, &["both", "itself", "two", "watch", "computers"]);
        return Topic::Computer { seat, both };
    }
    if has_word(l, &["human", "person", "two", "multiplayer", "friend"]) {
        return Topic::Human { seat };
    }
    if has_word(l, &["sure", "ready", "confirm", "continue"]) {
        return Topic::Confirm;
    }
    Topic::Unknown
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(printed: &str, prompt: &str, playing: bool) -> Question {
        let lines: Vec<String> = printed.lines().map(str::to_string).collect();
        classify(&lines, prompt, playing)
    }

    fn modes(q: &Question) -> Vec<(String, Meaning)> {
        match q {
            Question::Menu(choices) => choices
                .iter()
                .map(|c| (c.answer.clone(), c.means))
                .collect(),
            other => panic!("not a menu: {other:?}"),
        }
    }

    #[test]
    fn names_and_seats_are_read() {
        assert_eq!(
            ask("", "Player 1's name: ", false),
            Question::Name { seat: Some(0) }
        );
        assert_eq!(
            ask("", "Enter the name of the second player: ", false),
            Question::Name { seat: Some(1) }
        );
        assert_eq!(
            ask("", "What is your name? ", false),
            Question::Name { seat: None }
        );
        let said = "Player 1 (a name, or cpu for the computer): ";
        assert_eq!(computer_word(said).as_deref(), Some("cpu"));
        assert_eq!(
            computer_word("Type 'AI' for a computer player: ").as_deref(),
            Some("AI")
        );
        assert_eq!(computer_word("Player 1's name: "), None);
        assert_eq!(computer_word("Name (type a name for the computer): "), None);
    }

    #[test]
    fn menus_on_one_line_are_read_by_their_keys() {
        let all = modes;
        let three = |a: &str, b: &str, c: &str| {
            vec![
                (a.to_string(), Meaning::Mode(Mode::HumanVsHuman)),
                (b.to_string(), Meaning::Mode(Mode::HumanVsComputer)),
                (c.to_string(), Meaning::Mode(Mode::ComputerVsComputer)),
            ]
        };
        let q = ask("[1] PvP | [2] PvC | [3] CvC\n", "Choose: ", false);
        assert_eq!(all(&q), three("1", "2", "3"));
        let q = ask(
            "1) Human vs Human  2) Human vs Computer  3) Computer vs Computer\n",
            "Choose a mode (1-3): ",
            false,
        );
        assert_eq!(all(&q), three("1", "2", "3"));
        let q = ask(
            "A) two players, B) against the computer, C) computer against computer\n",
            "Your choice: ",
            false,
        );
        assert_eq!(all(&q), three("A", "B", "C"));
        let q = ask("", "Game mode (pvp/pvc/cvc): ", false);
        assert_eq!(all(&q), three("pvp", "pvc", "cvc"));
        let q = ask("Modes: HvH, HvC, CvC\n", "Mode (1-3): ", false);
        assert_eq!(all(&q), three("1", "2", "3"));
        let q = ask(
            "1 human-human\t2 human-computer\t3 computer-computer\n",
            "Mode:",
            false,
        );
        assert_eq!(all(&q), three("1", "2", "3"));
        let q = ask(
            "P) two players\nC) play the computer\nW) watch the computer play itself\n",
            "Choose P, C or W: ",
            false,
        );
        assert_eq!(all(&q), three("P", "C", "W"));
        let q = ask(
            "1 human-human; 2 human-computer; 3 computer-computer\n",
            "Mode:",
            false,
        );
        assert_eq!(all(&q), three("1", "2", "3"));
        let q = ask("Choose one: friend, computer, watch\n", "Mode: ", false);
        assert_eq!(all(&q), three("friend", "computer", "watch"));
        let q = ask(
            "1) Human vs Human\n2) Human vs Computer\n3) Computer vs Computer\n",
            ">>> ",
            false,
        );
        assert_eq!(all(&q), three("1", "2", "3"));
        assert_eq!(
            ask("Names of the two players:\n", ">>> ", false),
            Question::Name { seat: None }
        );
        assert_eq!(
            ask("", "How many computers? (0, 1 or 2) ", false),
            Question::ComputerCount
        );
    }

    #[test]
    fn lettered_seats_human_counts_and_boards_by_example_are_read() {
        assert_eq!(
            ask("", "Player 2: (h)uman or (c)omputer? ", false),
            Question::Kind {
                seat: Some(1),
                human: "h".into(),
                computer: "c".into()
            }
        );
        assert_eq!(
            ask("", "How many human players? (0-2) ", false),
            Question::HumanCount
        );
        assert_eq!(
            ask("", "Number of players (0, 1 or 2)? ", false),
            Question::HumanCount
        );
        assert_eq!(
            ask("", "Seed for the board (any whole number): ", false),
            Question::Seed
        );
        assert_eq!(
            ask("", "Rows (e.g. 3 4 5): ", false),
            Question::Board { commas: false }
        );
        assert_eq!(
            ask("", "Heaps, e.g. 3,4,5: ", false),
            Question::Board { commas: true }
        );
        assert_eq!(
            ask("", "Player 1, your move (column count): ", true),
            Question::Move
        );
    }

    #[test]
    fn menus_are_read_on_lines_and_in_sentences() {
        let q = ask(
            "Welcome to Nim!\n1) Human vs Human\n2) Human vs Computer\n3) Computer vs Computer\n",
            "Choose a mode: ",
            false,
        );
        assert_eq!(
            modes(&q),
            [
                ("1".into(), Meaning::Mode(Mode::HumanVsHuman)),
                ("2".into(), Meaning::Mode(Mode::HumanVsComputer)),
                ("3".into(), Meaning::Mode(Mode::ComputerVsComputer)),
            ]
        );
        let q = ask(
            "",
            "Type 1 for two players, 2 to play the computer, 3 to watch two computers: ",
            false,
        );
        assert_eq!(
            modes(&q),
            [
                ("1".into(), Meaning::Mode(Mode::HumanVsHuman)),
                ("2".into(), Meaning::Mode(Mode::HumanVsComputer)),
                ("3".into(), Meaning::Mode(Mode::ComputerVsComputer)),
            ]
        );
        let q = ask(
            "[1] Player vs Player\n[2] Player vs AI\n[3] AI vs AI\n[4] Quit\n",
            "> ",
            false,
        );
        assert_eq!(modes(&q).len(), 4);
        assert_eq!(modes(&q)[3].1, Meaning::Other);
        let q = ask(
            "Modes: 1 = human vs human, 2 = human vs computer, 3 = computer vs computer\n",
            "Mode (1-3)? ",
            false,
        );
        assert_eq!(modes(&q).len(), 3, "{q:?}");
        assert_eq!(modes(&q)[0].1, Meaning::Mode(Mode::HumanVsHuman));
        let q = ask("", "Enter game mode: hh, hc or cc > ", false);
        assert_eq!(
            modes(&q),
            [
                ("hh".into(), Meaning::Mode(Mode::HumanVsHuman)),
                ("hc".into(), Meaning::Mode(Mode::HumanVsComputer)),
                ("cc".into(), Meaning::Mode(Mode::ComputerVsComputer)),
            ]
        );
    }

    #[test]
    fn yes_no_questions_know_their_topic() {
        let q = ask(
            "",
            "Do you want to play against the computer? (y/n) ",
            false,
        );
        assert_eq!(
            q,
            Question::YesNo {
                topic: Topic::Computer {
                    seat: None,
                    both: false
                },
                yes: "y".into(),
                no: "n".into()
            }
        );
        let q = ask("", "Is player 2 a computer? [yes/no] ", false);
        assert!(matches!(
            q,
            Question::YesNo {
                topic: Topic::Computer { seat: Some(1), .. },
                ..
            }
        ));
        let q = ask("", "Play again? (y/n) ", true);
        assert!(matches!(
            q,
            Question::YesNo {
                topic: Topic::Again,
                ..
            }
        ));
        let q = ask("", "Do you want to go first? ", false);
        assert!(matches!(
            q,
            Question::YesNo {
                topic: Topic::GoFirst { computer: false },
                ..
            }
        ));
    }

    #[test]
    fn seat_kinds_boards_and_moves_are_told_apart() {
        assert!(matches!(
            ask("", "Is player 1 a human or a computer? (h/c) ", false),
            Question::Kind { seat: Some(0), .. }
        ));
        assert_eq!(ask("", "Board: ", false), Question::Board { commas: false });
        assert_eq!(
            ask("", "Enter the row sizes separated by commas: ", false),
            Question::Board { commas: true }
        );
        assert_eq!(ask("", "How many rows? ", false), Question::RowCount);
        assert_eq!(
            ask("", "How many elements in row 2? ", false),
            Question::RowSize(Some(2))
        );
        assert_eq!(
            ask("", "Ada, your move (row, elements): ", true),
            Question::Move
        );
        assert_eq!(ask("", "Which row? ", true), Question::Row);
        assert_eq!(ask("Choose a row:\n", "", true), Question::Row);
        assert_eq!(
            ask("", "How many do you want to take? ", true),
            Question::Elements
        );
        assert_eq!(
            ask("", "How many elements from row 3? ", true),
            Question::Elements
        );
        assert_eq!(ask("", "Ada: ", true), Question::Move);
        assert_eq!(ask("", "Take:", true), Question::Elements);
        assert_eq!(ask("", "Row number: ", true), Question::Row);
        assert_eq!(
            ask("", "make a move Put your name here (row, elements)", true),
            Question::Move
        );
        assert_eq!(ask("", "Press Enter to continue", true), Question::Continue);
        assert_eq!(ask("", "Row 1: ", false), Question::RowSize(Some(1)));
        let q = ask("", "Who goes first? 1) You 2) Computer ", false);
        assert_eq!(
            modes(&q),
            [
                ("1".into(), Meaning::First(Kind::Human)),
                ("2".into(), Meaning::First(Kind::Computer)),
            ]
        );
    }
}
