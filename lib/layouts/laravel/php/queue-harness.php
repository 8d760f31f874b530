<?php
/*
 * The real Illuminate\Queue\RedisQueue (Debian's php-laravel-framework) over
 * Illuminate\Redis\RedisManager with the phpredis client, for the tests:
 * no application, only the queue and the Redis connection it writes with.
 *
 *   php queue-harness.php PREFIX QUEUE COMMAND [ARG]
 *
 *   push NAME [CLASS] push a job whose command carries NAME; prints its id.
 *                    CLASS: HarnessJob (default), App\Jobs\SendMail, a
 *                    namespaced job as an application's are, or ExpiringJob,
 *                    whose retryUntil is 90 seconds after its push
 *   later SECONDS    push a job delayed by SECONDS; prints its id
 *   pop [RETRY]      pop one job (retry_after RETRY, default 60); prints
 *                    {id, attempts, name, reserved} or null
 *   release ID DELAY pops until job ID and releases it back, delayed by DELAY
 *   delete ID        pops until job ID and deletes it (as a finished job)
 *   size             RedisQueue::size()
 *   drain [RETRY]    pops and deletes every job: prints [{id, name, attempts,
 *                    payload}], payload being the popped payload decoded
 *   work STOPFILE    a worker over every queue QUEUE names (commas between
 *                    them), until the file STOPFILE exists: pops a job of
 *                    each in turn and deletes it, as a worker that ran it
 *                    (its command is never unserialized: any class will
 *                    do), resting 0.1 s after a round that found none;
 *                    prints [[queue, id], ...] of every job it ran
 *
 * Environment: REDIS_HOST, REDIS_PORT, REDIS_DB (default 127.0.0.1:6379, 0).
 * Output: one line of JSON.
 */
require '/usr/share/php/Illuminate/autoload.php';

use Illuminate\Container\Container;
use Illuminate\Queue\RedisQueue;
use Illuminate\Redis\RedisManager;

/** A queued command as Laravel serializes it into data.command. */
class HarnessJob
{
    public $name;
    public $html = '<b>not markup</b> & "quoted"';

    public function __construct($name)
    {
        $this->name = $name;
    }
}

// An application's job class is namespaced: its displayName has backslashes, which the payload's JSON escapes.
eval('namespace App\\Jobs; class SendMail extends \\HarnessJob {}');

/** A job that may be retried until 90 seconds after its push (Queue::getJobExpiration reads the property). */
class ExpiringJob extends HarnessJob
{
    public $retryUntil;

    public function __construct($name)
    {
        parent::__construct($name);
        $this->retryUntil = time() + 90;
    }
}

[$script, $prefix, $queueName, $command] = array_pad($argv, 4, null);
$arg = $argv[4] ?? null;
$arg2 = $argv[5] ?? null;
if ($prefix === null || $queueName === null || $command === null) {
    fwrite(STDERR, "usage: php queue-harness.php PREFIX QUEUE COMMAND [ARG]\n");
    exit(2);
}

function queueWith($prefix, $queueName, $retryAfter)
{
    $redis = new RedisManager(new Container(), 'phpredis', [
        'default' => [
            'host' => getenv('REDIS_HOST') ?: '127.0.0.1',
            'port' => (int) (getenv('REDIS_PORT') ?: 6379),
            'database' => (int) (getenv('REDIS_DB') ?: 0),
            'prefix' => $prefix,
        ],
    ]);
    $queue = new RedisQueue($redis, $queueName, 'default', $retryAfter, null);
    $queue->setContainer(new Container());
    $queue->setConnectionName('redis');
    return $queue;
}

function summary($job)
{
    $payload = json_decode($job->getRawBody(), true);
    return ['id' => $job->getJobId(), 'attempts' => $job->attempts(), 'name' => unserialize($payload['data']['command'])->name];
}

/** Pops until job $id comes up; every other job popped on the way is released back at once, so nothing is lost. */
function popUntil($queue, $id)
{
    $skipped = [];
    while (($job = $queue->pop()) !== null) {
        if ($job->getJobId() === $id) {
            foreach ($skipped as $other) $other->release(0);
            return $job;
        }
        $skipped[] = $job;
    }
    foreach ($skipped as $other) $other->release(0);
    return null;
}

$queue = queueWith($prefix, $queueName, (int) ($command === 'pop' || $command === 'drain' ? ($arg ?? 60) : 60));
switch ($command) {
    case 'push':
        $class = $arg2 ?? 'HarnessJob';
        if (!in_array($class, ['HarnessJob', 'App\\Jobs\\SendMail', 'ExpiringJob'], true)) {
            fwrite(STDERR, "unknown job class $class\n");
            exit(2);
        }
        echo json_encode($queue->push(new $class($arg))), "\n";
        break;
    case 'later':
        echo json_encode($queue->later((int) $arg, new HarnessJob("later $arg"))), "\n";
        break;
    case 'pop':
        $job = $queue->pop();
        echo json_encode($job === null ? null : summary($job) + ['reserved' => $job->getReservedJob()]), "\n";
        break;
    case 'release':
    case 'delete':
        $job = popUntil($queue, $arg);
        if ($job === null) {
            echo "false\n";
            break;
        }
        $command === 'release' ? $job->release((int) $arg2) : $job->delete();
        echo "true\n";
        break;
    case 'size':
        echo json_encode($queue->size()), "\n";
        break;
    case 'drain':
        $ran = [];
        while (($job = $queue->pop()) !== null) {
            $ran[] = summary($job) + ['payload' => json_decode($job->getRawBody(), true)];
            $job->delete();
        }
        echo json_encode($ran), "\n";
        break;
    case 'work':
        $ran = [];
        $queues = explode(',', $queueName);
        while (!file_exists($arg)) {
            $found = false;
            foreach ($queues as $name) {
                $job = $queue->pop($name);
                if ($job === null) continue;
                $job->delete();
                $ran[] = [$name, $job->getJobId()];
                $found = true;
            }
            if (!$found) usleep(100000);
        }
        echo json_encode($ran), "\n";
        break;
    default:
        fwrite(STDERR, "unknown command $command\n");
        exit(2);
}
