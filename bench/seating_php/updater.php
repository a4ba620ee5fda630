<?php
// Stand-in for the platform's include/updater.php (its background-job runner) while
// bench/seating_platform.py runs seating_optimization.php: that file ends with
// `$updater->run()`, and this run() plays the platform's cron on one seating for a budget of
// CPU seconds (the platform's own runner counts wall-clock seconds; on a machine shared with
// other work, CPU time is what gives both sides of the bench the same time). Each pass runs the tasks in the platform's order (players, tables, numbers), each
// picked only when the platform's own query would pick it (see seating_optimization.php's
// *_task_start), each for at most MAX_ITEMS_IN_RUN items as one of the platform's runs does,
// started and ended by the task's own *_task_start / *_task_end, which keep their state and
// the best seating in the `seatings` row (db.php).

// This process's CPU seconds, user and system.
function bench_cpu()
{
	$u = getrusage();
	return $u['ru_utime.tv_sec'] + $u['ru_utime.tv_usec'] / 1e6 + $u['ru_stime.tv_sec'] + $u['ru_stime.tv_usec'] / 1e6;
}

class Updater
{
	protected $vars;
	private $runItems = 0;
	public $passes = 0;
	public $items = array('players' => 0, 'tables' => 0, 'numbers' => 0);
	public $errors = array();

	function __construct($file)
	{
		$this->vars = new stdClass();
	}

	protected function getArg($name)
	{
		return $name == 'hash' ? $GLOBALS['bench']->hash : null;
	}

	protected function itemsProcessed() { return $this->runItems; }

	protected function canDoOneMoreItem() { return bench_cpu() < $GLOBALS['bench']->deadline; }

	protected function log($str, $flags = 0, $level = 0) {}
	protected function debug($str, $flags = 0) {}
	protected function info($str, $flags = 0) {}
	protected function important($str, $flags = 0) {}
	protected function error($str, $flags = 0) { $this->errors[] = $str; }

	// The production query of each task, on this tournament's row only.
	private function picked($task)
	{
		$row = $GLOBALS['seatings'][$GLOBALS['bench']->hash];
		switch ($task)
		{
		case 'players':
			return $row['players_full_runs'] < SEATING_MAX_PLAYERS_OPTIMIZATIONS && $row['players_score'] > 0;
		case 'tables':
			return $row['tables_full_runs'] < SEATING_MAX_TABLES_OPTIMIZATIONS && $row['tables_score'] > 0 && $row['numbers_state'] === '';
		default:
			return $row['numbers_full_runs'] < SEATING_MAX_NUMBERS_OPTIMIZATIONS && $row['numbers_score'] > 0 && $row['tables_state'] === '';
		}
	}

	function run()
	{
		$bench = $GLOBALS['bench'];
		while (bench_cpu() < $bench->deadline)
		{
			$ran = false;
			foreach (array('players', 'tables', 'numbers') as $task)
			{
				if (bench_cpu() >= $bench->deadline || !$this->picked($task)) continue;
				$ran = true;
				$this->vars = new stdClass();
				$this->runItems = 0;
				$this->{$task . '_task_start'}();
				while (($n = $this->{$task . '_task'}(1000)) > 0)
				{
					$this->runItems += $n;
				}
				$this->items[$task] += $this->runItems;
				$this->{$task . '_task_end'}();
			}
			if (!$ran) break;  // every score perfect, or every task at its limit
			++$this->passes;
		}
		$GLOBALS['bench_updater'] = $this;
	}
}
