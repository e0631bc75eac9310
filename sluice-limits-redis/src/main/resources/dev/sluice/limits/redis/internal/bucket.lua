-- The token bucket of Go's golang.org/x/time/rate (v0.16.0), one Redis key per bucket, one atomic call per
-- decision, on Redis's own clock. The arithmetic follows Go's float64 operations one for one, so that a decision
-- here is what Go decides at the same instant (instants are whole microseconds, as TIME gives them).
--
-- State, a hash at KEYS[1] (a missing key is a full bucket never used, which is what Go's NewLimiter makes):
--   tokens    the tokens at `last` (%.17g, so the double survives the round trip; negative while reserved ahead)
--   last      when `tokens` was computed: microseconds of Redis TIME
--   event_us  Go's lastEvent, the latest instant a reservation acts at: whole microseconds ...
--   event_ns  ... plus nanoseconds (0..999), since waits are computed in nanoseconds as Go's are
-- The key expires 10 ms after the bucket would be full again (then it equals a missing key); never with a zero
-- rate, since such a bucket never refills.
--
-- ARGV[1] op: 'r' reserve, 'c' cancel, 't' tokens. ARGV[2] the time in us, '' for Redis TIME (the limiter always
-- passes ''; tests pass instants of a fixed grid). ARGV[3] rate in tokens/s (finite, >= 0). ARGV[4] burst (>= 0).
--   'r': ARGV[5] n (>= 0), ARGV[6] longest wait in ns (-1: any)
--        -> {ok (1/0), wait ns (-1: never), tokens after (not OK: tokens now), now us, act us, act ns}
--   'c': ARGV[5] n the reservation took, ARGV[6] its rate, ARGV[7] its act us, ARGV[8] its act ns
--        -> {restored (1/0), tokens after, now us}
--   't': -> {0, tokens now, now us}
-- Numbers with fractions go back as strings: Redis would truncate a Lua number to an integer.
--
-- Redis >= 5 replicates a script's effects rather than the script, so reading TIME and then writing is allowed;
-- 3.2 to 4.x must be asked to (the call is a no-op from 7.0 on).

local INF_NS = 9223372036854775807 -- Go's InfDuration, MaxInt64; as a double it is 2^63

local function fmt(x)
    return string.format('%.17g', x)
end

-- Go's Duration.Seconds for d ns: whole seconds and the rest converted apart. fmod is exact and keeps d's sign.
local function seconds_ns(d)
    local ns = math.fmod(d, 1e9)
    return (d - ns) / 1e9 + ns / 1e9
end

-- The same for d us: ns / 1e9 and us / 1e6 are one real number rounded once, so the bits are Go's.
local function seconds_us(d)
    local us = math.fmod(d, 1e6)
    return (d - us) / 1e6 + us / 1e6
end

-- Go's durationFromTokens: ns to accumulate `tokens`, truncated toward zero; InfDuration if never or too long.
local function duration_ns(limit, tokens)
    if limit <= 0 then
        return INF_NS
    end
    local d = tokens / limit * 1e9
    if d >= INF_NS then
        return INF_NS
    end
    if d >= 0 then
        return math.floor(d)
    end
    return math.ceil(d)
end

-- An instant (us, ns) plus d ns, with ns kept in 0..999.
local function add(us, ns, d)
    local rest = math.fmod(d, 1000)
    us = us + (d - rest) / 1000
    ns = ns + rest
    if ns >= 1000 then
        return us + 1, ns - 1000
    elseif ns < 0 then
        return us - 1, ns + 1000
    end
    return us, ns
end

-- Go's Time.Sub of two instants (us, ns): nanoseconds, saturated to the range of a Duration.
local function sub(aus, ans, bus, bns)
    local d = (aus - bus) * 1000 + (ans - bns)
    if d >= INF_NS then
        return INF_NS
    elseif d <= -INF_NS then
        return -INF_NS
    end
    return d
end

local function before(aus, ans, bus, bns)
    return aus < bus or (aus == bus and ans < bns)
end

if redis.replicate_commands then
    redis.replicate_commands()
end

local key = KEYS[1]
local op = ARGV[1]
local limit = tonumber(ARGV[3])
local burst = tonumber(ARGV[4])
local now
if ARGV[2] == '' then
    local time = redis.call('TIME')
    now = tonumber(time[1]) * 1000000 + tonumber(time[2])
else
    now = tonumber(ARGV[2])
end

local state = redis.call('HMGET', key, 'tokens', 'last', 'event_us', 'event_ns')
local stored = state[1] ~= false and state[2] ~= false

-- Go's advance: the tokens at `now`, without changing anything. Time going back accumulates nothing.
local function advance()
    if not stored then
        return burst
    end
    local last = tonumber(state[2])
    if now < last then
        last = now
    end
    local tokens = tonumber(state[1])
    if limit > 0 then
        tokens = tokens + seconds_us(now - last) * limit
    end
    if tokens > burst then
        tokens = burst
    end
    return tokens
end

local function store(tokens, event_us, event_ns)
    redis.call('HSET', key, 'tokens', fmt(tokens), 'last', fmt(now), 'event_us', fmt(event_us),
        'event_ns', fmt(event_ns))
    if limit > 0 then
        -- Until the bucket is full again, plus 10 ms: by then every reservation has acted (a reservation acts
        -- when the tokens come back to 0, before they reach the burst), so forgetting the key changes nothing.
        local ms = math.ceil((burst - tokens) / limit * 1000) + 10
        if ms < 1e15 then
            redis.call('PEXPIRE', key, fmt(ms))
            return
        end
    end
    redis.call('PERSIST', key)
end

if op == 'r' then
    local n = tonumber(ARGV[5])
    local max_wait = tonumber(ARGV[6])
    local available = advance()
    local tokens = available - n
    local wait = 0
    if tokens < 0 then
        wait = duration_ns(limit, -tokens)
    end
    if n > burst or (max_wait >= 0 and wait > max_wait) then
        -- Not OK: nothing changes (golang/go#52584).
        return {0, -1, fmt(available), now, 0, 0}
    end
    local act_us, act_ns = add(now, 0, wait)
    store(tokens, act_us, act_ns)
    if wait == INF_NS then
        wait = -1
    end
    return {1, wait, fmt(tokens), now, fmt(act_us), act_ns}
elseif op == 'c' then
    local n = tonumber(ARGV[5])
    local r_limit = tonumber(ARGV[6])
    local act_us = tonumber(ARGV[7])
    local act_ns = tonumber(ARGV[8])
    -- Nothing to give back for no tokens, to a missing key (a full bucket), or once the reservation has acted.
    if n == 0 or not stored or before(act_us, act_ns, now, 0) then
        return {0, fmt(advance()), now}
    end
    local event_us = tonumber(state[3])
    local event_ns = tonumber(state[4])
    -- Tokens reserved after this reservation stay taken: as many as accrue between its instant and the latest.
    local restore = n
    if r_limit > 0 then
        restore = n - seconds_ns(sub(event_us, event_ns, act_us, act_ns)) * r_limit
    end
    if restore <= 0 then
        return {0, fmt(advance()), now}
    end
    local tokens = advance() + restore
    if tokens > burst then
        tokens = burst
    end
    if act_us == event_us and act_ns == event_ns then
        -- This was the latest reservation: the latest event becomes the one before, unless that is past.
        local prev_us, prev_ns = add(act_us, act_ns, duration_ns(r_limit, -n))
        if not before(prev_us, prev_ns, now, 0) then
            event_us, event_ns = prev_us, prev_ns
        end
    end
    store(tokens, event_us, event_ns)
    return {1, fmt(tokens), now}
elseif op == 't' then
    return {0, fmt(advance()), now}
end
return redis.error_reply('ERR sluice rate script: unknown op ' .. tostring(op))
