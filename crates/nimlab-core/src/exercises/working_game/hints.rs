//! Hints for a game that went wrong: traced to what nimlab last typed, and to the rules.

use super::referee::{GameResult, Rule, SetupAnswer, Typed};
use crate::verdict::Verdict;

/// Advice for a game that was not accepted, from what the judge saw: a crash and the line
/// typed just before it, a rule broken, and what the lab's rules suggest besides. Each hint
/// names a cause the judge observed, never a guess.
pub fn hints(
    result: &GameResult,
    stderr: Option<&str>,
    program: &std::path::Path,
    source: &[u8],
    lab_names: &[&str],
) -> Vec<String> {
    let mut hints = Vec::new();
    if result.verdict == Verdict::RuntimeError {
        let stderr = stderr.unwrap_or("");
        let error = crate::traceback::error_line(stderr);
        hints.extend(crash_hint(result.last_typed.as_ref(), error));
        hints.extend(crate::traceback::python2_input_hint(stderr));
        let file = program
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| "working_game.py".into());
        let source = String::from_utf8_lossy(source);
        hints.extend(crate::traceback::import_hint(
            stderr,
            lab_names,
            Some((&file, &source)),
        ));
    }
    if result
        .broken
        .as_ref()
        .is_some_and(|b| b.rule == Rule::Modes)
    {
        hints.push("The lab's first rule is that the players choose any of the three modes (human against human, human against computer, computer against computer). Let them choose before the game: with a menu of the three modes, with questions (\"Is player 2 a computer? (y/n)\"), or the way the model solution does it, asking for the players' names and playing a name that contains \"computer\" as a computer.".into());
    }
    let broken = result.broken.as_ref().map(|b| b.rule);
    hints.extend(broken.and_then(|rule| rule_hint(rule, result.ending)));
    if result
        .notes
        .iter()
        .any(|n| n.contains("without saying why"))
    {
        hints.push("After an illegal move the program asked the same player again without saying why. That is allowed (the lab asks for a message or a retry), but a short message, such as which row or how many, helps the player.".into());
    }
    if result
        .notes
        .iter()
        .any(|n| n.contains("could not read a board"))
    {
        hints.push("nimlab could not find the board in your program's output, so it followed the game by the moves alone. Players need to see the board after every move: print(present_board(board)) shows it in the form nimlab reads best.".into());
    }
    if result.verdict == Verdict::NotJudged {
        hints.push("nimlab could not work out how to play your game, so this game is not judged either way. Make each question say what it wants: list the three modes in a menu (1) Human vs Human, 2) Human vs Computer, 3) Computer vs Computer), put (y/n) after a yes-or-no question, and ask for a move with the words row and elements. If your lab's game asks something else, your instructor can give nimlab the answers.".into());
    }
    hints
}

/// What to change when the game broke one of the lab's rules about moves, turns and the end.
fn rule_hint(rule: Rule, ending: crate::nim::Ending) -> Option<String> {
    let misere = ending == crate::nim::Ending::Misere;
    let text = match rule {
        Rule::Winner if misere => {
            "Under misère rules the player who takes the last element loses: when the board is empty, announce the other player as the winner."
        }
        Rule::Winner => {
            "The player who takes the last element wins: announce the player who made the last move, before the turn passes to the other one."
        }
        Rule::ComputerOptimal if misere => {
            "The computer must play the misère strategy (misere_move), making a winning move whenever one exists: the normal game's move (leave nim-sum 0) is right until a move would leave no row of two or more; that move must leave an odd number of rows of one, or the computer takes the last element."
        }
        Rule::ComputerOptimal => {
            "The computer must play the winning strategy (optimal_move): whenever the nim-sum is not 0, it makes the move that leaves nim-sum 0."
        }
        Rule::IllegalRefused => {
            "After an illegal move the board must stay as it was and the same player be asked again: look at what make_move returns (False for an illegal move) and ask again without passing the turn."
        }
        Rule::TurnOrder => {
            "The turn passes to the other player after a legal move, and only then: after an illegal move, ask the same player again."
        }
        _ => return None,
    };
    Some(text.into())
}

/// A crash traced to the line nimlab typed just before it.
fn crash_hint(typed: Option<&Typed>, error: &str) -> Option<String> {
    let shown = |text: &str| {
        if text.trim().is_empty() {
            "an empty line".to_string()
        } else {
            format!("`{text}`")
        }
    };
    let value_error = error.starts_with("ValueError");
    match typed? {
        Typed::Setup {
            answer: SetupAnswer::Name(index),
            text,
            question,
        } if value_error => {
            let which = if *index == 0 { "first" } else { "second" };
            Some(format!(
                "The program crashed on {}, which nimlab typed as the {which} player's name because the question `{question}` reads as asking for a name ({error}). If it wanted a number there, say so in the question (for example \"How many rows?\"); if it wanted a name, read it as text.",
                shown(text)
            ))
        }
        Typed::Setup {
            answer: SetupAnswer::Board,
            text,
            question,
        } if value_error => Some(format!(
            "The program crashed on the board {} typed for `{question}` ({error}). nimlab types a board as row sizes separated by spaces (and tries commas if asked again): read it with [int(word) for word in line.replace(\",\", \" \").split()].",
            shown(text)
        )),
        Typed::Setup { text, question, .. } if value_error => Some(format!(
            "The program crashed on {}, nimlab's answer to `{question}` ({error}). A program should ask again when an answer is not one it expects.",
            shown(text)
        )),
        Typed::Move {
            text,
            is_move: false,
            ..
        } if value_error || error.starts_with("IndexError") => {
            let why = if error.contains("unpack") {
                "the line did not split into the two parts the program unpacks (row and elements). Count the parts before unpacking them, or catch the ValueError,"
            } else if error.contains("invalid literal for int()") {
                "int() cannot read it as a number: catch the ValueError from int()"
            } else {
                "check what was typed before using it,"
            };
            Some(format!(
                "{} is not a move, and the program crashed on it: {why} and ask the same player again.",
                shown(text)
            ))
        }
        Typed::Move {
            text,
            is_move: true,
            legal: true,
        } if value_error && text.contains(',') => Some(format!(
            "The program crashed on {}, a legal move typed as the statement asks, row and elements with a comma between ({error}): read both numbers around the comma, for example from line.replace(\",\", \" \").split().",
            shown(text)
        )),
        Typed::Move {
            text,
            is_move: true,
            legal: false,
        } if value_error || error.starts_with("IndexError") => Some(format!(
            "The program crashed after {}, a move that is not legal on this board ({error}): check a move (make_move says whether it is legal) before using it, and ask the same player again.",
            shown(text)
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_about_moves_and_the_end_has_its_hint_under_each_ending() {
        use crate::nim::Ending;
        let normal = rule_hint(Rule::Winner, Ending::Normal).unwrap();
        assert!(normal.contains("takes the last element wins"), "{normal}");
        let misere = rule_hint(Rule::Winner, Ending::Misere).unwrap();
        assert!(misere.contains("announce the other player"), "{misere}");
        assert!(
            rule_hint(Rule::ComputerOptimal, Ending::Normal)
                .unwrap()
                .contains("optimal_move")
        );
        assert!(
            rule_hint(Rule::ComputerOptimal, Ending::Misere)
                .unwrap()
                .contains("misere_move")
        );
        for ending in [Ending::Normal, Ending::Misere] {
            assert!(
                rule_hint(Rule::IllegalRefused, ending)
                    .unwrap()
                    .contains("stay as it was")
            );
            assert!(
                rule_hint(Rule::TurnOrder, ending)
                    .unwrap()
                    .contains("and only then")
            );
            assert_eq!(rule_hint(Rule::Ends, ending), None);
        }
    }

    #[test]
    fn a_crash_is_traced_to_the_line_typed_before_it() {
        let name = Typed::Setup {
            answer: SetupAnswer::Name(0),
            text: "Ada".into(),
            question: "Player 1: ".into(),
        };
        let order = crash_hint(
            Some(&name),
            "ValueError: invalid literal for int() with base 10: 'Ada'",
        )
        .unwrap();
        assert!(order.contains("the first player's name") && order.contains("`Player 1: `"));
        let text = |t: &str| Typed::Move {
            text: t.into(),
            is_move: false,
            legal: false,
        };
        let unpack = crash_hint(
            Some(&text("hello")),
            "ValueError: not enough values to unpack (expected 2, got 1)",
        )
        .unwrap();
        assert!(unpack.starts_with("`hello` is not a move") && unpack.contains("unpacks"));
        let py2 = crash_hint(
            Some(&text("")),
            "ValueError: need more than 1 value to unpack",
        )
        .unwrap();
        assert!(py2.starts_with("an empty line is not a move"), "{py2}");
        let int = crash_hint(
            Some(&text("x y")),
            "ValueError: invalid literal for int() with base 10: 'x'",
        )
        .unwrap();
        assert!(int.contains("catch the ValueError from int()"));
        // A crash after a legal move, or with nothing typed, is not traced to the input.
        let legal = Typed::Move {
            text: "1, 1".into(),
            is_move: true,
            legal: true,
        };
        let comma = crash_hint(
            Some(&legal),
            "ValueError: invalid literal for int() with base 10: '1,'",
        )
        .unwrap();
        assert!(comma.contains("with a comma between"), "{comma}");
        let spaced = Typed::Move {
            text: "1 1".into(),
            is_move: true,
            legal: true,
        };
        assert_eq!(
            crash_hint(Some(&spaced), "ValueError: math domain error"),
            None
        );
        assert_eq!(crash_hint(None, "ValueError: x"), None);
    }
}
