// uPlot with its stylesheet, as one chunk the chart imports once the page is interactive: the stylesheet
// is then no render-blocking request of every page that shows a chart (docs/benchmarks.md).
import 'uplot/dist/uPlot.min.css';

export { default } from 'uplot';
