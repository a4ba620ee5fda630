<?php
// Stand-in for the platform's include/db.php while bench/seating_platform.py runs its seating
// code (include/seating.php, seating_optimization.php) outside the platform: the one table
// they use, `seatings`, held in memory, and the few statement shapes they send to it. Any
// other statement is an error, so a change in their SQL shows instead of passing silently.

$GLOBALS['seatings'] = array();

function seatings_row($hash)
{
	$row = array('hash' => $hash, 'seating' => '[]');
	foreach (array('players', 'numbers', 'tables') as $kind)
	{
		$row[$kind . '_score'] = 0;
		$row[$kind . '_state'] = '';
		foreach (array('runs', 'full_runs', 'void_runs', 'skip_runs') as $counter)
		{
			$row[$kind . '_' . $counter] = 0;
		}
	}
	return $row;
}

function seatings_select($sql, $params)
{
	if (!preg_match('/^SELECT (.+) FROM seatings WHERE hash (=|LIKE) \?$/', $sql, $m))
	{
		throw new Exception('unexpected query: ' . $sql);
	}
	$columns = explode(', ', $m[1]);
	$result = array();
	foreach ($GLOBALS['seatings'] as $hash => $row)
	{
		$wanted = $m[2] == '=' ? $hash === $params[0]
			: strncmp($hash, rtrim($params[0], '%'), strlen(rtrim($params[0], '%'))) == 0;
		if ($wanted)
		{
			$values = array();
			foreach ($columns as $column)
			{
				$values[] = $row[$column];
			}
			$result[] = $values;
		}
	}
	return $result;
}

function seatings_value($expr, &$params, $row)
{
	$expr = trim($expr);
	if ($expr == '?') return array_shift($params);
	if ($expr == '""') return '';
	if (is_numeric($expr)) return (int)$expr;
	if (preg_match('/^(\w+) \+ 1$/', $expr, $m)) return $row[$m[1]] + 1;
	if (preg_match('/^\w+$/', $expr)) return $row[$expr];
	throw new Exception('unexpected value: ' . $expr);
}

function seatings_exec($sql, $params)
{
	if (preg_match('/^UPDATE seatings SET (.+) WHERE hash = \?$/', $sql, $m))
	{
		$hash = array_pop($params);
		$row = $GLOBALS['seatings'][$hash];
		$new = $row;
		foreach (explode(',', $m[1]) as $assignment)
		{
			list($column, $expr) = explode('=', $assignment, 2);
			$new[trim($column)] = seatings_value($expr, $params, $row);
		}
		$GLOBALS['seatings'][$hash] = $new;
		return;
	}
	if (preg_match('/^INSERT INTO seatings \((.+)\) VALUES \((.+)\)$/', $sql, $m))
	{
		$values = explode(',', $m[2]);
		$row = null;
		foreach (explode(',', $m[1]) as $i => $column)
		{
			$value = seatings_value($values[$i], $params, array());
			if ($row === null) $row = seatings_row($value);  // the first column is the hash
			$row[trim($column)] = $value;
		}
		$GLOBALS['seatings'][$row['hash']] = $row;
		return;
	}
	throw new Exception('unexpected statement: ' . $sql);
}

class Db
{
	static function begin() {}
	static function commit() {}
	static function rollback() {}

	static function record($label, $sql, ...$params)
	{
		$rows = seatings_select($sql, $params);
		if (count($rows) == 0) throw new Exception('no ' . $label . ' for ' . $sql);
		return $rows[0];
	}

	static function exec($label, $sql, ...$params)
	{
		seatings_exec($sql, $params);
	}
}

class DbQuery
{
	private $rows;
	private $next = 0;

	function __construct($sql, ...$params)
	{
		$this->rows = seatings_select($sql, $params);
	}

	function next()
	{
		return $this->next < count($this->rows) ? $this->rows[$this->next++] : false;
	}
}

function get_label($text)
{
	return $text;
}
