/**
 * How a family declares a conversion into one file: the output is opened before anything is
 * written, so the family writes only what goes into it and the line that reports it.
 */
import type { ByteSink, Converter, ConverterSpec, ConvertReport, OptionValues, TaskContext } from './model.js';

export function fileConverter(
  spec: Omit<ConverterSpec, 'output'>,
  write: (sink: ByteSink, ctx: TaskContext, options: OptionValues) => Promise<ConvertReport>,
): Converter {
  return { ...spec, output: 'file', run: async (target, ctx, options) => write(await target.file(), ctx, options) };
}
