import { describe, expect, test } from 'bun:test'
import { escapeLabelValue, Registry, routeFamily } from '../src/lib/metrics.ts'
import { parsePrometheusText, sampleValue } from './support/prometheus-text.ts'

describe('metrics text format', () => {
  test('counters, gauges and histograms with labels parse back strictly', () => {
    const r = new Registry()
    const c = r.counter('t_requests_total', 'requests\nby kind', ['kind', 'outcome'])
    const g = r.gauge('t_depth', 'depth')
    const h = r.histogram('t_seconds', 'time', ['family'], [0.1, 1])
    const child = c.labels('a"b', 'x\\y')
    child.value++
    child.value += 2
    c.labels('plain', 'ok').value++
    g.labels().value = 7
    h.labels('q').observe(0.05)
    h.labels('q').observe(0.5)
    h.labels('q').observe(5)
    r.gauge('t_status', 'status', ['status']).collect((set) => {
      set({ status: 'ok' }, 1)
      set({ status: 'halted' }, 0)
    })
    const text = r.text()
    const f = parsePrometheusText(text)
    expect(f.get('t_requests_total')!.type).toBe('counter')
    expect(sampleValue(f, 't_requests_total', { kind: 'a"b', outcome: 'x\\y' })).toBe(3)
    expect(sampleValue(f, 't_requests_total', { kind: 'plain' })).toBe(1)
    expect(sampleValue(f, 't_depth')).toBe(7)
    expect(sampleValue(f, 't_seconds_bucket', { family: 'q', le: '0.1' })).toBe(1)
    expect(sampleValue(f, 't_seconds_bucket', { family: 'q', le: '1' })).toBe(2)
    expect(sampleValue(f, 't_seconds_bucket', { family: 'q', le: '+Inf' })).toBe(3)
    expect(sampleValue(f, 't_seconds_count', { family: 'q' })).toBe(3)
    expect(sampleValue(f, 't_seconds_sum', { family: 'q' })).toBeCloseTo(5.55)
    expect(sampleValue(f, 't_status', { status: 'ok' })).toBe(1)
    expect(text).toContain('# HELP t_requests_total requests\\nby kind')
  })

  test('an unlabelled metric writes a zero sample before any use; children are kept', () => {
    const r = new Registry()
    const c = r.counter('z_total', 'z')
    const h = r.histogram('z_seconds', 'z')
    const f = parsePrometheusText(r.text())
    expect(sampleValue(f, 'z_total')).toBe(0)
    expect(sampleValue(f, 'z_seconds_count')).toBe(0)
    expect(c.labels()).toBe(c.labels())
    expect(h.labels()).toBe(h.labels())
  })

  test('bad names and label counts are refused', () => {
    const r = new Registry()
    expect(() => r.counter('bad-name', 'x')).toThrow()
    expect(() => r.counter('x_total', 'x', ['__reserved'])).toThrow()
    expect(() => r.histogram('h', 'x', ['le'])).toThrow()
    r.counter('dup', 'x')
    expect(() => r.counter('dup', 'x')).toThrow()
    const c = r.counter('two_total', 'x', ['a', 'b'])
    expect(() => (c.labels as (...v: string[]) => unknown)('only-one')).toThrow()
  })

  test('the strict parser refuses what is not the format', () => {
    expect(() => parsePrometheusText('x 1\n')).toThrow(/before any TYPE/)
    expect(() => parsePrometheusText('# TYPE x counter\ny 1\n')).toThrow(/not of family/)
    expect(() => parsePrometheusText('# TYPE x counter\nx{a=b} 1\n')).toThrow(/bad labels/)
    expect(() => parsePrometheusText('# TYPE x counter\nx 1')).toThrow(/newline/)
    expect(() => parsePrometheusText('# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n')).toThrow(
      /cumulative/,
    )
  })

  test('label escaping and route families', () => {
    expect(escapeLabelValue('a\\b"c\nd')).toBe('a\\\\b\\"c\\nd')
    const families = new Map([
      ['markets', 'market_data'],
      ['query', 'query'],
      ['metrics', 'metrics'],
    ])
    expect(routeFamily('http://127.0.0.1:8080/api/v1/markets/BTC-USD?x=1', '/api/v1/', families)).toBe('market_data')
    expect(routeFamily('http://h/api/v1/query', '/api/v1/', families)).toBe('query')
    expect(routeFamily('http://h/metrics', '/api/v1/', families)).toBe('metrics')
    expect(routeFamily('http://h/api/v1/nothing', '/api/v1/', families)).toBe('other')
    expect(routeFamily('http://h', '/api/v1/', families)).toBe('other')
  })
})
