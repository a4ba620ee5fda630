<?php
// The rating platform's standings of given games, by its own code, run under php-cli outside
// the platform (tests/support/platform_scoring.py --record). Reads JSON on stdin:
//
//   {"scoring": <a scoring version's JSON>, "tournaments": [{"events": [
//       {"id": 1, "group": "main", "games": [<a game as the platform's JSON>, ...]}, ...]}]}
//
// and writes, for each tournament, its standings as include/scoring.php computes them:
// "overall" (_tournament_scores: each event's games scored within its group, groups added up),
// "groups" (each group's events alone, as a tournament of them) and "events" (_event_scores:
// one event alone). Each row: the player's id, points, each group's points, the counts the sort
// reads, in the order compare_scores gives.
//
// Only the database is stood in for: the SQL those two functions run is done here by loops over
// the games (each line says which query it stands for). Each game's players are the platform's
// GamePlayersStats (include/game_players_stats.php: role, won, kill_round, kill_type,
// extra_points, the scoring flags); the points are add_player_counters and add_player_score,
// the order compare_scores (include/scoring.php), the expressions its evaluator's
// (include/evaluator.php): all the platform's own, unchanged.

// PHP 8.2 deprecates the dynamic properties the platform's classes use throughout: not ours to hear
error_reporting(E_ALL & ~E_DEPRECATED);
require_once __DIR__ . '/include/constants.php';
require_once __DIR__ . '/include/game.php';
require_once __DIR__ . '/include/scoring.php';
require_once __DIR__ . '/include/game_players_stats.php';

$LOD = SCORING_LOD_PER_GROUP;

function stats_of($game)
{
	return new GamePlayersStats(new Game($game));
}

// The rows every query below reads: `players p JOIN games g` (one row a player of a game), in
// `ORDER BY g.end_time`.
function rows_of($events)
{
	$rows = array();
	foreach ($events as $event)
	{
		foreach ($event->games as $game)
		{
			$stats = stats_of($game);
			foreach ($stats->players as $p)
			{
				$row = new stdClass();
				$row->user_id = (int)$p->id;
				$row->flags = (int)$p->scoring_flags;
				$row->role = (int)$p->role;
				$row->won = (int)$p->won;
				$row->kill_round = (int)$p->kill_round;
				$row->kill_type = (int)$p->kill_type;
				$row->extra_points = $p->extra_points;
				$row->game_id = $game->id;
				$row->end_time = (int)$game->endTime;
				$row->event_id = $event->id;
				$rows[] = $row;
			}
		}
	}
	usort($rows, function($a, $b) { return $a->end_time - $b->end_time; });
	return $rows;
}

// _tournament_scores' and _event_scores' player query: COUNT(g.id), the first-night kills as
// red (kill_round = 1 AND kill_type = KILL_TYPE_NIGHT AND role < 2), SUM(won), the wins as the
// sheriff or the don (won > 0 AND (role = 1 OR role = 3)), GROUP BY u.id.
function players_of($rows, $scoring, $lod)
{
	$players = array();
	foreach ($rows as $row)
	{
		if (!isset($players[$row->user_id]))
		{
			$player = new stdClass();
			$player->id = $row->user_id;
			$player->games_count = 0;
			$player->killed_first_count = 0;
			$player->wins = 0;
			$player->special_role_wins = 0;
			init_player_score($player, $scoring, $lod);
			$players[$row->user_id] = $player;
		}
		$player = $players[$row->user_id];
		++$player->games_count;
		if ($row->kill_round == 1 && $row->kill_type == KILL_TYPE_NIGHT && $row->role < 2)
		{
			++$player->killed_first_count;
		}
		$player->wins += $row->won;
		if ($row->won > 0 && ($row->role == 1 || $row->role == 3))
		{
			++$player->special_role_wins;
		}
	}
	return $players;
}

// One pass of _tournament_scores' group loop (or of _event_scores): the group's final counters
// first, then each game in order with the running ones, as the platform does.
function score_group($players, $rows, $scoring, $lod)
{
	$counters = array();
	foreach ($rows as $row)
	{
		if (!isset($counters[$row->user_id]))
		{
			$counters[$row->user_id] = $players[$row->user_id]->counters;
		}
		add_player_counters($counters[$row->user_id][0], $scoring, $row->flags, $row->role);
	}
	$options = new stdClass();
	$options->flags = 0;
	foreach ($rows as $row)
	{
		$p = $players[$row->user_id];
		$player_counters = &$counters[$row->user_id];
		add_player_counters($player_counters[1], $scoring, $row->flags, $row->role);
		add_player_score($p, $player_counters, $scoring, $row->game_id, $row->end_time, $row->flags,
			$row->role, $row->extra_points, 0, $lod, $options, 0);
	}
}

function sorted_rows($players, $scoring)
{
	$scores = array();
	foreach ($players as $player)
	{
		if ($player->games_count > 0)
		{
			$scores[] = $player;
		}
	}
	usort($scores, function($a, $b) use ($scoring) { return compare_scores($a, $b, $scoring); });
	$out = array();
	foreach ($scores as $p)
	{
		$out[] = array('id' => $p->id, 'points' => $p->points, 'main' => $p->main_points,
			'legacy' => $p->legacy_points, 'extra' => $p->extra_points,
			'penalty' => $p->penalty_points, 'night1' => $p->night1_points,
			'games' => $p->games_count, 'wins' => $p->wins,
			'special_role_wins' => $p->special_role_wins,
			'killed_first_count' => $p->killed_first_count);
	}
	return $out;
}

// _tournament_scores (not a long-term tournament): events grouped by their scoring options'
// group, each group scored with its own counters, the players' points added up over groups.
function standings_of_tournament($events, $scoring, $lod)
{
	$rows = rows_of($events);
	$players = players_of($rows, $scoring, $lod);
	create_scoring_evaluators($scoring);
	$groups = array();
	foreach ($events as $event)
	{
		$groups[$event->group][] = $event->id;
	}
	foreach ($groups as $group => $ids)
	{
		$in_group = array_values(array_filter($rows, function($r) use ($ids) {
			return in_array($r->event_id, $ids); }));
		score_group($players, $in_group, $scoring, $lod);
	}
	return sorted_rows($players, $scoring);
}

// _event_scores: one event's games alone.
function standings_of_event($event, $scoring, $lod)
{
	$rows = rows_of(array($event));
	$players = players_of($rows, $scoring, $lod);
	create_scoring_evaluators($scoring);
	score_group($players, $rows, $scoring, $lod);
	return sorted_rows($players, $scoring);
}

$input = json_decode(file_get_contents('php://stdin'));
$answer = array();
foreach ($input->tournaments as $tournament)
{
	$scoring = json_decode(json_encode($input->scoring));
	$result = array('overall' => standings_of_tournament($tournament->events, $scoring, $LOD),
		'groups' => array(), 'events' => array());
	$groups = array();
	foreach ($tournament->events as $event)
	{
		$groups[$event->group][] = $event;
	}
	foreach ($groups as $group => $events)
	{
		$scoring = json_decode(json_encode($input->scoring));
		$result['groups'][$group] = standings_of_tournament($events, $scoring, $LOD);
	}
	foreach ($tournament->events as $event)
	{
		$scoring = json_decode(json_encode($input->scoring));
		$result['events'][(string)$event->id] = standings_of_event($event, $scoring, $LOD);
	}
	$answer[] = $result;
}
echo json_encode($answer, JSON_PRETTY_PRINT | JSON_PRESERVE_ZERO_FRACTION), "\n";
