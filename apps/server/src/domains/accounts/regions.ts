import { areaList } from '@vant/area-data';
import { invalid } from '../../http/errors.js';

/**
 * China's regions, GB/T 2260 (province → city → district, six-digit codes), from the maintained
 * @vant/area-data package: a province is NN0000, its cities NNNN00, their districts NNNNNN, so
 * nesting is read from the code. Nothing here is typed by hand.
 */
export interface Region {
  code: string;
  name: string;
}

const provinces = areaList.province_list;
const cities = areaList.city_list;
const districts = areaList.county_list;

const sorted = (list: Record<string, string>, prefix: string): Region[] =>
  Object.entries(list)
    .filter(([code]) => code.startsWith(prefix))
    .map(([code, name]) => ({ code, name }))
    .sort((a, b) => a.code.localeCompare(b.code));

/** The children of a region: the provinces for '', a province's cities, a city's districts; [] otherwise. */
export function regionChildren(parentcode: string): Region[] {
  if (parentcode === '') return sorted(provinces, '');
  if (provinces[parentcode]) return sorted(cities, parentcode.slice(0, 2));
  if (cities[parentcode]) return sorted(districts, parentcode.slice(0, 4));
  return [];
}

export interface RegionPath {
  provincecode: string;
  citycode: string;
  districtcode: string;
}

/**
 * Checks that the three codes exist and nest (the district in the city, the city in the
 * province; a district may be empty only for a city without districts) and answers the region
 * name of the user record ('浙江省杭州市滨江区'). Refuses anything else in the caller's language.
 */
export function checkRegion({ provincecode, citycode, districtcode }: RegionPath): string {
  const province = provinces[provincecode];
  if (!province) invalid({ zh: `未知的省份代码：${provincecode}`, en: `Unknown province code: ${provincecode}` });
  const city = cities[citycode];
  if (!city || citycode.slice(0, 2) !== provincecode.slice(0, 2)) {
    invalid({ zh: `城市代码 ${citycode} 不属于 ${province}`, en: `City code ${citycode} is not a city of ${provincecode}` });
  }
  if (districtcode === '') {
    if (regionChildren(citycode).length) invalid({ zh: '请选择区县', en: 'Choose a district' });
    return `${province}${city}`;
  }
  const district = districts[districtcode];
  if (!district || districtcode.slice(0, 4) !== citycode.slice(0, 4)) {
    invalid({ zh: `区县代码 ${districtcode} 不属于 ${city}`, en: `District code ${districtcode} is not a district of ${citycode}` });
  }
  return `${province}${city}${district}`;
}
