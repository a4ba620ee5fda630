<?php
// Stand-ins for the platform's files its scoring code requires but never calls while scoring
// (tests/support/platform_scoring.py copies this file as each of include/db.php, names.php,
// error.php and localization.php beside the platform's own constants.php, utilities.php,
// evaluator.php, scoring.php and game_players_stats.php). What they would give is given here:
// Exc (error.php) for an expression that does not parse, get_label (localization.php) for its
// message. Nothing of the database is defined: a call into it is an error, so a change in the
// platform's scoring that reads the database shows instead of passing silently.

if (!class_exists('Exc'))
{
	class Exc extends Exception {}
}

if (!function_exists('get_label'))
{
	function get_label($label)
	{
		$args = func_get_args();
		for ($i = 1; $i < count($args); ++$i)
		{
			$label = str_replace('[' . ($i - 1) . ']', (string)$args[$i], $label);
		}
		return $label;
	}
}
