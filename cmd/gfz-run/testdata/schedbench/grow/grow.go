// Package grow has two fuzz targets for gfz-run's scheduler benchmark
// (issue 30, goal b): Classify, whose few branches a fuzzer covers within
// a second, and Open, whose coverage keeps growing for minutes: each of its
// 200 doors is a branch of its own, opened by a value whose hash with the
// door has its top 20 bits zero (one chance in about a million per value
// tried), so gfz opens one every few seconds of a core, fewer as fewer
// are left.
package grow

// opens reports whether v opens door i.
func opens(i int, v uint64) bool {
	x := v ^ uint64(i+1)*0x9e3779b97f4a7c15
	x ^= x >> 31
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 29
	x *= 0x94d049bb133111eb
	x ^= x >> 32
	return x>>44 == 0
}

// Doors is how many doors Open has.
const Doors = 200

// Open reports whether v opens door i, one branch per door.
func Open(i int, v uint64) bool {
	switch i {
	case 0:
		if opens(0, v) {
			return true
		}
	case 1:
		if opens(1, v) {
			return true
		}
	case 2:
		if opens(2, v) {
			return true
		}
	case 3:
		if opens(3, v) {
			return true
		}
	case 4:
		if opens(4, v) {
			return true
		}
	case 5:
		if opens(5, v) {
			return true
		}
	case 6:
		if opens(6, v) {
			return true
		}
	case 7:
		if opens(7, v) {
			return true
		}
	case 8:
		if opens(8, v) {
			return true
		}
	case 9:
		if opens(9, v) {
			return true
		}
	case 10:
		if opens(10, v) {
			return true
		}
	case 11:
		if opens(11, v) {
			return true
		}
	case 12:
		if opens(12, v) {
			return true
		}
	case 13:
		if opens(13, v) {
			return true
		}
	case 14:
		if opens(14, v) {
			return true
		}
	case 15:
		if opens(15, v) {
			return true
		}
	case 16:
		if opens(16, v) {
			return true
		}
	case 17:
		if opens(17, v) {
			return true
		}
	case 18:
		if opens(18, v) {
			return true
		}
	case 19:
		if opens(19, v) {
			return true
		}
	case 20:
		if opens(20, v) {
			return true
		}
	case 21:
		if opens(21, v) {
			return true
		}
	case 22:
		if opens(22, v) {
			return true
		}
	case 23:
		if opens(23, v) {
			return true
		}
	case 24:
		if opens(24, v) {
			return true
		}
	case 25:
		if opens(25, v) {
			return true
		}
	case 26:
		if opens(26, v) {
			return true
		}
	case 27:
		if opens(27, v) {
			return true
		}
	case 28:
		if opens(28, v) {
			return true
		}
	case 29:
		if opens(29, v) {
			return true
		}
	case 30:
		if opens(30, v) {
			return true
		}
	case 31:
		if opens(31, v) {
			return true
		}
	case 32:
		if opens(32, v) {
			return true
		}
	case 33:
		if opens(33, v) {
			return true
		}
	case 34:
		if opens(34, v) {
			return true
		}
	case 35:
		if opens(35, v) {
			return true
		}
	case 36:
		if opens(36, v) {
			return true
		}
	case 37:
		if opens(37, v) {
			return true
		}
	case 38:
		if opens(38, v) {
			return true
		}
	case 39:
		if opens(39, v) {
			return true
		}
	case 40:
		if opens(40, v) {
			return true
		}
	case 41:
		if opens(41, v) {
			return true
		}
	case 42:
		if opens(42, v) {
			return true
		}
	case 43:
		if opens(43, v) {
			return true
		}
	case 44:
		if opens(44, v) {
			return true
		}
	case 45:
		if opens(45, v) {
			return true
		}
	case 46:
		if opens(46, v) {
			return true
		}
	case 47:
		if opens(47, v) {
			return true
		}
	case 48:
		if opens(48, v) {
			return true
		}
	case 49:
		if opens(49, v) {
			return true
		}
	case 50:
		if opens(50, v) {
			return true
		}
	case 51:
		if opens(51, v) {
			return true
		}
	case 52:
		if opens(52, v) {
			return true
		}
	case 53:
		if opens(53, v) {
			return true
		}
	case 54:
		if opens(54, v) {
			return true
		}
	case 55:
		if opens(55, v) {
			return true
		}
	case 56:
		if opens(56, v) {
			return true
		}
	case 57:
		if opens(57, v) {
			return true
		}
	case 58:
		if opens(58, v) {
			return true
		}
	case 59:
		if opens(59, v) {
			return true
		}
	case 60:
		if opens(60, v) {
			return true
		}
	case 61:
		if opens(61, v) {
			return true
		}
	case 62:
		if opens(62, v) {
			return true
		}
	case 63:
		if opens(63, v) {
			return true
		}
	case 64:
		if opens(64, v) {
			return true
		}
	case 65:
		if opens(65, v) {
			return true
		}
	case 66:
		if opens(66, v) {
			return true
		}
	case 67:
		if opens(67, v) {
			return true
		}
	case 68:
		if opens(68, v) {
			return true
		}
	case 69:
		if opens(69, v) {
			return true
		}
	case 70:
		if opens(70, v) {
			return true
		}
	case 71:
		if opens(71, v) {
			return true
		}
	case 72:
		if opens(72, v) {
			return true
		}
	case 73:
		if opens(73, v) {
			return true
		}
	case 74:
		if opens(74, v) {
			return true
		}
	case 75:
		if opens(75, v) {
			return true
		}
	case 76:
		if opens(76, v) {
			return true
		}
	case 77:
		if opens(77, v) {
			return true
		}
	case 78:
		if opens(78, v) {
			return true
		}
	case 79:
		if opens(79, v) {
			return true
		}
	case 80:
		if opens(80, v) {
			return true
		}
	case 81:
		if opens(81, v) {
			return true
		}
	case 82:
		if opens(82, v) {
			return true
		}
	case 83:
		if opens(83, v) {
			return true
		}
	case 84:
		if opens(84, v) {
			return true
		}
	case 85:
		if opens(85, v) {
			return true
		}
	case 86:
		if opens(86, v) {
			return true
		}
	case 87:
		if opens(87, v) {
			return true
		}
	case 88:
		if opens(88, v) {
			return true
		}
	case 89:
		if opens(89, v) {
			return true
		}
	case 90:
		if opens(90, v) {
			return true
		}
	case 91:
		if opens(91, v) {
			return true
		}
	case 92:
		if opens(92, v) {
			return true
		}
	case 93:
		if opens(93, v) {
			return true
		}
	case 94:
		if opens(94, v) {
			return true
		}
	case 95:
		if opens(95, v) {
			return true
		}
	case 96:
		if opens(96, v) {
			return true
		}
	case 97:
		if opens(97, v) {
			return true
		}
	case 98:
		if opens(98, v) {
			return true
		}
	case 99:
		if opens(99, v) {
			return true
		}
	case 100:
		if opens(100, v) {
			return true
		}
	case 101:
		if opens(101, v) {
			return true
		}
	case 102:
		if opens(102, v) {
			return true
		}
	case 103:
		if opens(103, v) {
			return true
		}
	case 104:
		if opens(104, v) {
			return true
		}
	case 105:
		if opens(105, v) {
			return true
		}
	case 106:
		if opens(106, v) {
			return true
		}
	case 107:
		if opens(107, v) {
			return true
		}
	case 108:
		if opens(108, v) {
			return true
		}
	case 109:
		if opens(109, v) {
			return true
		}
	case 110:
		if opens(110, v) {
			return true
		}
	case 111:
		if opens(111, v) {
			return true
		}
	case 112:
		if opens(112, v) {
			return true
		}
	case 113:
		if opens(113, v) {
			return true
		}
	case 114:
		if opens(114, v) {
			return true
		}
	case 115:
		if opens(115, v) {
			return true
		}
	case 116:
		if opens(116, v) {
			return true
		}
	case 117:
		if opens(117, v) {
			return true
		}
	case 118:
		if opens(118, v) {
			return true
		}
	case 119:
		if opens(119, v) {
			return true
		}
	case 120:
		if opens(120, v) {
			return true
		}
	case 121:
		if opens(121, v) {
			return true
		}
	case 122:
		if opens(122, v) {
			return true
		}
	case 123:
		if opens(123, v) {
			return true
		}
	case 124:
		if opens(124, v) {
			return true
		}
	case 125:
		if opens(125, v) {
			return true
		}
	case 126:
		if opens(126, v) {
			return true
		}
	case 127:
		if opens(127, v) {
			return true
		}
	case 128:
		if opens(128, v) {
			return true
		}
	case 129:
		if opens(129, v) {
			return true
		}
	case 130:
		if opens(130, v) {
			return true
		}
	case 131:
		if opens(131, v) {
			return true
		}
	case 132:
		if opens(132, v) {
			return true
		}
	case 133:
		if opens(133, v) {
			return true
		}
	case 134:
		if opens(134, v) {
			return true
		}
	case 135:
		if opens(135, v) {
			return true
		}
	case 136:
		if opens(136, v) {
			return true
		}
	case 137:
		if opens(137, v) {
			return true
		}
	case 138:
		if opens(138, v) {
			return true
		}
	case 139:
		if opens(139, v) {
			return true
		}
	case 140:
		if opens(140, v) {
			return true
		}
	case 141:
		if opens(141, v) {
			return true
		}
	case 142:
		if opens(142, v) {
			return true
		}
	case 143:
		if opens(143, v) {
			return true
		}
	case 144:
		if opens(144, v) {
			return true
		}
	case 145:
		if opens(145, v) {
			return true
		}
	case 146:
		if opens(146, v) {
			return true
		}
	case 147:
		if opens(147, v) {
			return true
		}
	case 148:
		if opens(148, v) {
			return true
		}
	case 149:
		if opens(149, v) {
			return true
		}
	case 150:
		if opens(150, v) {
			return true
		}
	case 151:
		if opens(151, v) {
			return true
		}
	case 152:
		if opens(152, v) {
			return true
		}
	case 153:
		if opens(153, v) {
			return true
		}
	case 154:
		if opens(154, v) {
			return true
		}
	case 155:
		if opens(155, v) {
			return true
		}
	case 156:
		if opens(156, v) {
			return true
		}
	case 157:
		if opens(157, v) {
			return true
		}
	case 158:
		if opens(158, v) {
			return true
		}
	case 159:
		if opens(159, v) {
			return true
		}
	case 160:
		if opens(160, v) {
			return true
		}
	case 161:
		if opens(161, v) {
			return true
		}
	case 162:
		if opens(162, v) {
			return true
		}
	case 163:
		if opens(163, v) {
			return true
		}
	case 164:
		if opens(164, v) {
			return true
		}
	case 165:
		if opens(165, v) {
			return true
		}
	case 166:
		if opens(166, v) {
			return true
		}
	case 167:
		if opens(167, v) {
			return true
		}
	case 168:
		if opens(168, v) {
			return true
		}
	case 169:
		if opens(169, v) {
			return true
		}
	case 170:
		if opens(170, v) {
			return true
		}
	case 171:
		if opens(171, v) {
			return true
		}
	case 172:
		if opens(172, v) {
			return true
		}
	case 173:
		if opens(173, v) {
			return true
		}
	case 174:
		if opens(174, v) {
			return true
		}
	case 175:
		if opens(175, v) {
			return true
		}
	case 176:
		if opens(176, v) {
			return true
		}
	case 177:
		if opens(177, v) {
			return true
		}
	case 178:
		if opens(178, v) {
			return true
		}
	case 179:
		if opens(179, v) {
			return true
		}
	case 180:
		if opens(180, v) {
			return true
		}
	case 181:
		if opens(181, v) {
			return true
		}
	case 182:
		if opens(182, v) {
			return true
		}
	case 183:
		if opens(183, v) {
			return true
		}
	case 184:
		if opens(184, v) {
			return true
		}
	case 185:
		if opens(185, v) {
			return true
		}
	case 186:
		if opens(186, v) {
			return true
		}
	case 187:
		if opens(187, v) {
			return true
		}
	case 188:
		if opens(188, v) {
			return true
		}
	case 189:
		if opens(189, v) {
			return true
		}
	case 190:
		if opens(190, v) {
			return true
		}
	case 191:
		if opens(191, v) {
			return true
		}
	case 192:
		if opens(192, v) {
			return true
		}
	case 193:
		if opens(193, v) {
			return true
		}
	case 194:
		if opens(194, v) {
			return true
		}
	case 195:
		if opens(195, v) {
			return true
		}
	case 196:
		if opens(196, v) {
			return true
		}
	case 197:
		if opens(197, v) {
			return true
		}
	case 198:
		if opens(198, v) {
			return true
		}
	case 199:
		if opens(199, v) {
			return true
		}
	}
	return false
}

// Classify sorts a pair of small numbers into one of a few classes.
func Classify(a, b int64) int {
	switch {
	case a < 3 && b < 3:
		return 0
	case a < 3:
		return 1
	case b < 3:
		return 2
	case a == b:
		return 3
	}
	return 4
}
