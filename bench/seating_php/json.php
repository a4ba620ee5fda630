<?php // stand-in for the platform's include/json.php: nothing of it is used
