//! The references checked against brute force and simple models, and the parsers and
//! comparators fed arbitrary input.

use nimlab_core::exercises::Comparison;
use nimlab_core::exercises::{self, Checked, Checker, Exercise, Judging, Settings};
use nimlab_core::{judge::compare::compare, nim};
use num_bigint::BigInt;
use proptest::prelude::*;
use std::collections::HashMap;

/// The settings an exercise has when its exercise.toml sets none.
fn config() -> Settings {
    exercises::no_settings(&Default::default()).unwrap()
}

fn checker() -> &'static dyn Checker {
    match exercise("optimal_move").judging(Comparison::Lines) {
        Judging::Checker(checker) => checker,
        _ => panic!("optimal_move is judged by its checker"),
    }
}

fn exercise(name: &str) -> &'static dyn Exercise {
    exercises::find(name).unwrap()
}

/// Whether the player to move on `board` wins against perfect play, by searching every move.
fn wins(board: &mut Vec<u8>, memo: &mut HashMap<Vec<u8>, bool>) -> bool {
    let mut key = board.clone();
    key.sort_unstable();
    if let Some(&known) = memo.get(&key) {
        return known;
    }
    // Whoever faces an empty board has lost: the opponent took the last element.
    let mut result = false;
    'moves: for row in 0..board.len() {
        for take in 1..=board[row] {
            board[row] -= take;
            let opponent_wins = wins(board, memo);
            board[row] += take;
            if !opponent_wins {
                result = true;
                break 'moves;
            }
        }
    }
    memo.insert(key, result);
    result
}

#[test]
fn exhaustive_search_agrees_with_the_nim_sum_and_the_reference_move_wins() {
    let optimal = exercise("optimal_move");
    let mut memo = HashMap::new();
    let mut boards = 0;
    for rows in 1..=4u32 {
        for code in 0..8u32.pow(rows) {
            let mut board: Vec<u8> = (0..rows)
                .map(|i| ((code / 8u32.pow(i)) % 8) as u8)
                .collect();
            let as_big: Vec<BigInt> = board.iter().map(|&r| BigInt::from(r)).collect();
            let lost = !wins(&mut board, &mut memo);
            assert_eq!(lost, nim::nim_sum(&as_big) == BigInt::ZERO, "{board:?}");
            boards += 1;
            if board.iter().all(|&r| r == 0) {
                continue;
            }
            let input = format!("{{\"board\": {board:?}}}");
            let answer = optimal.reference(&input, &config()).unwrap();
            let mv: Vec<usize> = serde_json::from_str(&answer).unwrap();
            assert!(
                mv[0] >= 1
                    && mv[0] <= board.len()
                    && mv[1] >= 1
                    && mv[1] <= board[mv[0] - 1] as usize,
                "{board:?}: {answer}"
            );
            board[mv[0] - 1] -= mv[1] as u8;
            if !lost {
                assert!(
                    !wins(&mut board, &mut memo),
                    "the reference's move {answer} on {input} does not win"
                );
            }
            // The checker accepts the reference's answer on every board.
            assert_eq!(
                checker().check(&input, &answer),
                Ok(Checked::Right),
                "{input}"
            );
        }
    }
    assert_eq!(boards, 8 + 64 + 512 + 4096);
}

fn big() -> impl Strategy<Value = BigInt> {
    prop::collection::vec(any::<u64>(), 0..3).prop_map(|limbs| {
        limbs
            .iter()
            .fold(BigInt::ZERO, |n, &l| (n << 64u32) + BigInt::from(l))
    })
}

proptest! {
    #[test]
    fn bitwise_xor_matches_digit_by_digit_xor(a in big(), b in big()) {
        let answer = exercise("bitwise_xor").reference(&format!("{a} {b}"), &config()).unwrap();
        let (da, db) = (a.to_str_radix(2), b.to_str_radix(2));
        let width = da.len().max(db.len());
        let (pa, pb) = (format!("{da:0>width$}"), format!("{db:0>width$}"));
        let digits: String = pa.chars().zip(pb.chars()).map(|(x, y)| if x == y { '0' } else { '1' }).collect();
        prop_assert_eq!(answer, format!("{}\n", BigInt::parse_bytes(digits.as_bytes(), 2).unwrap()));
    }

    #[test]
    fn bin_num_round_trips(n in big()) {
        let bin_num = exercise("bin_num");
        let digits = bin_num.reference(&format!("{{\"type\": \"num_bin\", \"value\": {n}}}"), &config()).unwrap();
        let back = bin_num.reference(&format!("{{\"type\": \"bin_num\", \"value\": {}}}", digits.trim()), &config()).unwrap();
        prop_assert_eq!(back.trim(), n.to_string());
        let list: Vec<u8> = serde_json::from_str(&digits).unwrap();
        prop_assert!(list.first() != Some(&0), "no leading zero: {:?}", list);
    }

    #[test]
    fn make_move_follows_the_rules(board in prop::collection::vec(0u32..10, 0..6), row in -2i64..8, elements in -2i64..12) {
        let input = format!("{{\"board\": {board:?}, \"row\": {row}, \"elements\": {elements}}}");
        let answer: (Vec<i64>, bool) = serde_json::from_str(&exercise("make_move").reference(&input, &config()).unwrap()).unwrap();
        let legal = row >= 1 && (row as usize) <= board.len() && elements >= 1 && elements <= i64::from(board[row as usize - 1]);
        let mut expected: Vec<i64> = board.iter().map(|&r| i64::from(r)).collect();
        if legal {
            expected[row as usize - 1] -= elements;
        }
        prop_assert_eq!(answer, (expected, legal));
    }

    #[test]
    fn present_board_draws_every_element(board in prop::collection::vec(0u32..30, 1..40)) {
        let words: Vec<String> = board.iter().map(u32::to_string).collect();
        let drawn = exercise("present_board").reference(&words.join(" "), &config()).unwrap();
        let lines: Vec<&str> = drawn.lines().collect();
        prop_assert_eq!(lines[0], "Nim:");
        prop_assert_eq!(lines.len(), board.len() + 1);
        for (i, (line, &size)) in lines[1..].iter().zip(&board).enumerate() {
            let expected = format!("{}:{}", i + 1, " X".repeat(size as usize));
            prop_assert_eq!(*line, expected.as_str());
        }
    }

    #[test]
    fn nim_sum_and_positions_agree(board in prop::collection::vec(0u64..1000, 0..12)) {
        let nim_sum = exercise("nim_sum");
        let sum = board.iter().fold(0, |a, b| a ^ b);
        let ask = |kind: &str| nim_sum.reference(&format!("{{\"type\": \"{kind}\", \"input\": {board:?}}}"), &config()).unwrap();
        prop_assert_eq!(ask("nim_sum"), format!("{sum}\n"));
        prop_assert_eq!(ask("is_n_position"), format!("{}\n", sum == 0));
        prop_assert_eq!(ask("is_p_position"), format!("{}\n", sum != 0));
    }

    #[test]
    fn the_checker_accepts_exactly_the_winning_moves(board in prop::collection::vec(0u32..16, 1..6), row in 0usize..7, take in 0u32..17) {
        prop_assume!(board.iter().any(|&r| r > 0));
        let input = format!("{{\"board\": {board:?}}}");
        let verdict = checker().check(&input, &format!("[{row}, {take}]")).unwrap();
        let legal = row >= 1 && row <= board.len() && take >= 1 && take <= board[row - 1];
        let sum = board.iter().fold(0, |a, b| a ^ b);
        let wins = legal && (sum == 0 || board.iter().enumerate().fold(0, |a, (i, &r)| a ^ if i + 1 == row { r - take } else { r }) == 0);
        prop_assert_eq!(verdict == Checked::Right, wins, "{:?}", verdict);
    }

    #[test]
    fn comparators_never_panic_and_each_output_matches_itself(text in ".{0,200}", other in ".{0,200}") {
        for mode in [Comparison::Lines, Comparison::Exact, Comparison::Tokens, Comparison::Json] {
            let _ = compare(mode, &text, &other);
            if mode != Comparison::Json {
                prop_assert!(compare(mode, &text, &text).is_ok());
            }
        }
    }

    #[test]
    fn white_diff_ignores_trailing_spaces_and_blank_lines(lines in prop::collection::vec("[a-zX: ]{0,12}", 0..8), pad in " {0,3}", blank in 0usize..3) {
        let expected = lines.join("\n");
        let padded: Vec<String> = lines.iter().map(|l| format!("{l}{pad}")).collect();
        let got = format!("{}{}", padded.join("\n"), "\n".repeat(blank));
        prop_assert!(compare(Comparison::Lines, &expected, &got).is_ok());
    }

    #[test]
    fn exercise_toml_parsing_never_panics(text in "\\PC{0,300}") {
        let _ = nimlab_core::lab::config::ExerciseConfig::parse(&text);
    }

    #[test]
    fn references_reject_garbage_without_panicking(text in "\\PC{0,200}") {
        for exercise in exercises::all() {
            let _ = exercise.reference(&text, &config());
        }
    }
}

/// A player moving at random (a random non-empty row, then a random number from it, as a
/// student's "random move" does) passes a case with nim-sum other than zero only by landing on
/// a winning move. Over the built-in fixtures that chance must be negligible.
#[test]
fn a_random_mover_passes_the_optimal_move_fixtures_with_negligible_probability() {
    let lab = nimlab_core::lab::Lab::built_in().unwrap();
    let exercise = lab.exercise("optimal_move").unwrap();
    let mut pass_all = 1.0f64;
    for case in &exercise.cases {
        let input: serde_json::Value = serde_json::from_str(case.input.text()).unwrap();
        let board: Vec<BigInt> = input["board"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.to_string().parse().unwrap())
            .collect();
        let moves = nim::winning_moves(&board);
        if moves.is_empty() {
            continue;
        }
        let rows = board.iter().filter(|r| **r > BigInt::ZERO).count() as f64;
        let chance: f64 = moves
            .iter()
            .map(|m| {
                let size: f64 = board[usize::try_from(&m.row).unwrap() - 1]
                    .to_string()
                    .parse()
                    .unwrap();
                1.0 / (rows * size)
            })
            .sum();
        pass_all *= chance;
    }
    assert!(
        pass_all < 1e-9,
        "a random mover passes every case with probability {pass_all:e}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn scenario_parsing_never_panics(text in "\\PC{0,300}") {
        let _ = nimlab_core::exercises::working_game::scenario::Scenario::parse(&text);
    }

    #[test]
    fn scenario_like_text_is_refused_with_a_reason(players in prop::collection::vec("[A-Za-z ]{0,8}", 0..4), board in prop::collection::vec(0u64..100, 0..15)) {
        let text = format!("players = {players:?}\nboard = {board:?}\n");
        if let Err(why) = nimlab_core::exercises::working_game::scenario::Scenario::parse(&text) {
            prop_assert!(!why.0.trim().is_empty());
        }
    }

    #[test]
    fn a_lab_folder_with_arbitrary_fixtures_loads_or_names_the_bad_file(
        files in prop::collection::vec(("[a-z0-9][a-z0-9._-]{0,11}", prop::sample::select(vec!["sample", "secret", "other"]), prop::collection::vec(any::<u8>(), 0..40)), 0..6)
    ) {
        let lab = tempfile::tempdir().unwrap();
        let exercise = lab.path().join("exercises/bitwise_xor");
        std::fs::create_dir_all(&exercise).unwrap();
        for file in ["exercise.toml", "README.md", "stub.py"] {
            let from = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("exercises/bitwise_xor").join(file);
            std::fs::copy(from, exercise.join(file)).unwrap();
        }
        for (name, folder, bytes) in &files {
            let dir = lab.path().join("fixtures/bitwise_xor").join(folder);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join(name), bytes).unwrap();
        }
        match nimlab_core::lab::Lab::from_folder(lab.path()) {
            Ok(loaded) => prop_assert_eq!(loaded.exercises.len(), 1),
            Err(e) => {
                let message = e.to_string();
                prop_assert!(message.contains(lab.path().to_str().unwrap()), "{}", message);
            }
        }
    }

    #[test]
    fn cms_import_of_arbitrary_task_yaml_never_panics(yaml in "\\PC{0,200}") {
        let src = tempfile::tempdir().unwrap();
        let task = src.path().join("t");
        std::fs::create_dir_all(task.join("input")).unwrap();
        std::fs::create_dir_all(task.join("output")).unwrap();
        std::fs::write(task.join("input/input0.txt"), "1 2\n").unwrap();
        std::fs::write(task.join("output/output0.txt"), "3\n").unwrap();
        std::fs::write(task.join("task.yaml"), &yaml).unwrap();
        let out = src.path().join("lab");
        if let Err(e) = nimlab_core::interop::cms::import(&task, &out) {
            prop_assert!(e.to_string().contains(src.path().to_str().unwrap()), "{}", e);
            prop_assert!(!out.exists());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// misere_move's reference and checker against a search of the game tree, on boards
    /// larger than the proof in `fixtures verify` covers (up to 6 rows of up to 9).
    #[test]
    fn misere_move_matches_a_game_tree_search(rows in prop::collection::vec(0u8..=9, 1..=6)) {
        prop_assume!(rows.iter().any(|&r| r > 0));
        let misere = exercise("misere_move");
        let Judging::Checker(checker) = misere.judging(Comparison::Lines) else {
            panic!("misere_move is judged by its checker");
        };
        let mut memo = HashMap::new();
        let mover_wins = nim::searched_mover_wins(&rows, nim::Ending::Misere, &mut memo);
        let board: Vec<BigInt> = rows.iter().map(|&r| BigInt::from(r)).collect();
        prop_assert_eq!(nim::misere_mover_wins(&board), mover_wins);
        let input = format!("{{\"board\": {rows:?}}}\n");
        let answer = misere.reference(&input, &config()).unwrap();
        let [row, take]: [usize; 2] = serde_json::from_str(answer.trim()).unwrap();
        let mut after = rows.clone();
        prop_assert!(row >= 1 && row <= rows.len() && take >= 1 && take <= usize::from(rows[row - 1]));
        after[row - 1] -= take as u8;
        if mover_wins {
            prop_assert!(!nim::searched_mover_wins(&after, nim::Ending::Misere, &mut memo), "{:?} -> {:?}", rows, after);
        }
        for (index, &size) in rows.iter().enumerate() {
            for take in 1..=size {
                let mut after = rows.clone();
                after[index] -= take;
                let right = !mover_wins || !nim::searched_mover_wins(&after, nim::Ending::Misere, &mut memo);
                let got = checker.check(&input, &format!("[{}, {take}]\n", index + 1)).unwrap();
                prop_assert_eq!(got == Checked::Right, right, "{:?}: [{}, {}]", rows, index + 1, take);
            }
        }
    }
}
