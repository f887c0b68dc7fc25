/**
 * The target as this run uses it: the target file narrowed by the run's settings (the areas chosen on the
 * command line or in CONFORMANCE_AREAS) and paced at this run's share of every documented limit (a
 * shard of n uses 1/n, so that n shards hitting one staging never multiply its request rate).
 */
import type { Target } from '../config/target.ts';
import type { RunSettings } from './settings.ts';

export function effectiveTarget(target: Target, settings: Pick<RunSettings, 'areas' | 'paceShare'>): Target {
  return {
    ...target,
    areas: settings.areas ? target.areas.filter((a) => settings.areas!.includes(a)) : target.areas,
    settings: { ...target.settings, paceFraction: target.settings.paceFraction * settings.paceShare },
  };
}
