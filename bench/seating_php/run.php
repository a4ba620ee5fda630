<?php
// The bench's entry to the platform's seating code (bench/seating_platform.py puts this
// beside copies of the platform's include/seating.php and seating_optimization.php and the
// stand-ins db.php, json.php, updater.php). Reads one JSON request on stdin, writes one JSON
// answer on stdout:
//   {"op": "score", "players", "tables", "games", "restrictions": [[a, b], ...],
//    "seatings": [layout, ...]}  ->  {"scores": [[players, numbers, tables], ...]}
//   {"op": "optimize", same definition, "seconds": S, "seed": N}  ->  the platform's seating
//    after S CPU seconds of its generator and optimizers, in the request's player numbers,
//    with its three scores and what ran.
// Scores come from a SeatingDef built on the request's numbering (no normalisation), so both
// sides of the bench are scored by the same definition.

require_once 'include/seating.php';

$request = json_decode(file_get_contents('php://stdin'));
$definition = function() use ($request)
{
	return new SeatingDef($request->players, $request->tables, $request->games, $request->restrictions);
};
$scores = function($def, $seating)
{
	return array($def->calculatePlayersScore($seating), $def->calculateNumbersScore($seating), $def->calculateTablesScore($seating));
};

if ($request->op == 'score')
{
	$def = $definition();
	$result = array();
	foreach ($request->seatings as $seating)
	{
		$result[] = $scores($def, json_decode(json_encode($seating), true));
	}
	echo json_encode(array('scores' => $result)), "\n";
	exit(0);
}

// op == optimize: what the platform does for a new tournament (api/ops/event.php set_seating_op:
// normalise the restrictions, findSeating: generate, renumber, store), then its optimizers.
mt_srand($request->seed);
require_once 'include/updater.php';
$start = microtime(true);
$def = $definition();
$mapping = empty($request->restrictions) ? array() : $def->normalizeRestrictions();
$GLOBALS['bench'] = (object)array('hash' => $def->hash, 'deadline' => bench_cpu() + $request->seconds);
$found = $def->findSeating(true);
require 'seating_optimization.php';  // its last line runs the updater (updater.php)
$elapsed = microtime(true) - $start;
$cpu = bench_cpu();
$updater = $GLOBALS['bench_updater'];
$row = $GLOBALS['seatings'][$def->hash];

// Back to the request's numbering, as api/get/seating.php does it.
$norm_to_orig = array_flip($mapping);
$free = array_values(array_diff(range(0, $request->players - 1), array_keys($mapping)));
foreach ($free as $i => $orig) $norm_to_orig[count($mapping) + $i] = $orig;
$seating = array();
foreach (reindex_seating(json_decode($row['seating'], true)) as $r => $round)
	foreach ($round as $t => $table)
		foreach ($table as $slot)
			$seating[$r][$t][] = $norm_to_orig[(int)$slot];

echo json_encode(array(
	'seating' => $seating,
	'scores' => $scores($definition(), $seating),
	'elapsed' => $elapsed,
	'cpu' => $cpu,
	'passes' => $updater->passes,
	'items' => $updater->items,
	'runs' => array($row['players_runs'], $row['tables_runs'], $row['numbers_runs']),
	'errors' => $updater->errors,
)), "\n";
